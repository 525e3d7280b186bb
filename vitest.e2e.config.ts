import { defineConfig } from "vitest/config";

// Browser journeys: each file starts the offline stack on free ports and drives Chromium.
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
