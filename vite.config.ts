import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import path from "node:path";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tanstackRouter({ target: "react", autoCodeSplitting: true, routeFileIgnorePattern: "\\.test\\.tsx?$" }), react(), tailwindcss()],
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  build: {
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Issue 7: the landing page's JavaScript is at most 100 KB gzipped (bench/bundle-size.ts).
        // Fewer, larger chunks compress better than the default split's many small ones.
        codeSplitting: {
          groups: [
            // What the entry imports statically: every page loads all of it anyway.
            { name: "app", tags: ["$initial"], priority: 2 },
            // The logo, which the signed-in screens show too, stays out of the next group.
            { name: "logo", test: /src[\\/]components[\\/]logo/, priority: 2 },
            // The landing page with the frame of the public pages. Their dependencies join them,
            // so these modules must not share any with the signed-in screens (except the above).
            { name: "landing", test: /src[\\/]features[\\/]marketing[\\/](landing-page|marketing-|icons)/, priority: 1 },
          ],
        },
      },
    },
  },
});
