import { defineConfig, type ViteUserConfig } from "vitest/config";

// Browser journeys: each file starts the offline stack on free ports and drives Chromium.
// `npm test` runs them beside the unit files (vitest.config.ts, project "e2e"), two files at a
// time; this config runs journeys alone, one file at a time (`npx vitest run --config
// vitest.e2e.config.ts e2e/x.e2e.ts`).
export const journeyOptions = {
  include: ["e2e/**/*.e2e.ts"],
  environment: "node",
  // The app is built once per run and served by every journey's stack (e2e/app-build.ts).
  globalSetup: ["./e2e/app-build.ts"],
  // A backstop for a hung journey, not a pace: each step has its own wait (e2e/harness.ts), and
  // the longest journey (teams, 40 s alone) took over 120 s beside a busy loop at load average 28.
  testTimeout: 300_000,
  hookTimeout: 300_000,
} satisfies ViteUserConfig["test"];

export default defineConfig({
  test: { ...journeyOptions, fileParallelism: false },
});
