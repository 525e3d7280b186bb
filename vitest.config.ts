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
    // A backstop for a hung test or hook, not a pace: a test ends as soon as what it waits for happens.
    // At Vitest's 5 s default, 58 tests of a whole run beside other runs (load average 25)
    // failed on the limit alone (convex/results.test.ts, apiKeys, drafts, …).
    testTimeout: 60_000,
    hookTimeout: 60_000,
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
        },
      },
      {
        extends: true,
        test: {
          name: "dev",
          include: ["dev/**/*.test.ts", "bench/**/*.test.ts", "test/**/*.test.ts", "cli/**/*.test.ts"],
          environment: "node",
        },
      },
      { extends: true, test: { name: "e2e", ...journeyOptions } },
    ],
  },
});
