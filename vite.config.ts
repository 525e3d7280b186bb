import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import path from "node:path";
import { defineConfig, type Connect, type Plugin } from "vite";

// The landing page is its own small entry (landing.html): a direct load of "/" gets it; every
// other address gets the app (index.html), which also renders "/" when navigated to in-app.
// A production host needs the same rule: "/" → landing.html, anything else → index.html.
const serveLandingAtRoot: Connect.NextHandleFunction = (request, _response, next) => {
  const [pathname, query] = (request.url ?? "/").split("?");
  if (pathname === "/" || pathname === "/index.html") request.url = `/landing.html${query ? `?${query}` : ""}`;
  next();
};

function landingEntry(): Plugin {
  return {
    name: "modeljury-landing-entry",
    configureServer: (server) => void server.middlewares.use(serveLandingAtRoot),
    configurePreviewServer: (server) => void server.middlewares.use(serveLandingAtRoot),
  };
}

export default defineConfig({
  plugins: [landingEntry(), tanstackRouter({ target: "react", autoCodeSplitting: true, routeFileIgnorePattern: "\\.test\\.tsx?$" }), react(), tailwindcss()],
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  build: {
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: { app: path.resolve(import.meta.dirname, "index.html"), landing: path.resolve(import.meta.dirname, "landing.html") },
      output: {
        // Issue 7: the landing page's JavaScript is at most 100 KB gzipped (bench/bundle-size.ts).
        // Fewer, larger chunks compress better than the default split's many small ones.
        codeSplitting: {
          groups: [
            // React itself, shared by the landing entry and the app.
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            // The light pieces both entries use, so the app never loads the landing chunk for them.
            {
              name: "base",
              test: /src[\\/](components[\\/](theme-provider|logo|inline-icon|marketing-link|ui[\\/]button-variants)|lib[\\/](theme|session|navigation|paths))|node_modules[\\/](clsx|class-variance-authority)[\\/]/,
              priority: 2,
            },
            // The landing page with the frame of the public pages. Their dependencies join them,
            // so these modules must not share any with the signed-in screens (except the above).
            { name: "landing", test: /src[\\/]features[\\/]marketing[\\/](landing-page|marketing-)/, priority: 1 },
          ],
        },
      },
    },
  },
});
