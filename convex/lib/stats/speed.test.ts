// @vitest-environment node
// The cost of one statistics computation, in CPU time (the machine running the tests is shared).
import { expect, it } from "vitest";
import { computeJuryStats } from "./index";
import { FAIR, simulate, TEN_MODELS } from "./simulated.helpers";

it("computes a test of 10 generators × 50 topics × 5 judges in under 250 ms of CPU time", () => {
  const input = simulate({ qualities: TEN_MODELS, judges: FAIR, topics: 50 });
  computeJuryStats({ ...input, seed: "warm-up" });
  const before = process.cpuUsage();
  const stats = computeJuryStats(input);
  const used = process.cpuUsage(before);
  expect(stats.models).toHaveLength(10);
  expect(stats.resamples).toBeGreaterThanOrEqual(1000);
  expect((used.user + used.system) / 1000).toBeLessThan(250);
});
