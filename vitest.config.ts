import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/suite-order.ts";
import { journeyOptions } from "./vitest.e2e.config.ts";

// `npm test`: unit and integration tests and the browser journeys in one run, on 2 workers.
// convex/ runs in edge-runtime (as Convex does), src/ in jsdom, dev/ (the offline stack) in
// node, e2e/ (browser journeys, each with its own stack on free ports) in node. Vitest's default
// on a 2-core machine is one worker (cores − 1); most files wait on servers, a browser or each
// other's CPU half the time, so two keep both cores busy. The longest files start first.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  test: {
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: LongestFirstSequencer },
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
          // A backstop, not a pace: whole-app renders with typing took over 20 s a test beside
          // other runs (load average 26), and a test ends as soon as its steps are seen.
          testTimeout: 60_000,
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
      { extends: true, test: { name: "e2e", ...journeyOptions } },
    ],
  },
});
