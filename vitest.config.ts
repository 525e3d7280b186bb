import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit and integration tests: convex/ runs in edge-runtime (as Convex does), src/ in jsdom,
// dev/ (the offline stack) in node. Browser journeys live in vitest.e2e.config.ts.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "convex",
          include: ["convex/**/*.test.ts"],
          environment: "edge-runtime",
          server: { deps: { inline: ["convex-test"] } },
        },
      },
      {
        extends: true,
        test: {
          name: "src",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["./src/test/setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "dev",
          include: ["dev/**/*.test.ts", "bench/**/*.test.ts", "test/**/*.test.ts", "cli/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
        },
      },
    ],
  },
});
