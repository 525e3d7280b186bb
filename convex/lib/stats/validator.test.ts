// The stored shape of the jury statistics: every outcome of computeJuryStats fits juryStatsValidator,
// so a testStats row can hold it as is.
import { validate } from "convex-helpers/validators";
import { describe, expect, it } from "vitest";
import { juryStatsValidator, type JuryStatsDoc } from "../../validators";
import { computeJuryStats } from "./index";
import type { JuryStats } from "./types";
import { FAIR, simulate, TEN_MODELS } from "./simulated.helpers";

// Compile-time: the computed shape and the stored shape are the same type.
const toStored = (stats: JuryStats): JuryStatsDoc => stats;
const fromStored = (stored: JuryStatsDoc): JuryStats => stored;

describe("juryStatsValidator", () => {
  it.each([
    [
      "a ranking test",
      simulate({
        qualities: TEN_MODELS,
        judges: [...FAIR.slice(0, 4), { id: "mistral/x", position: 0.4 }],
        topics: 8,
        bothOrders: true,
      }),
    ],
    ["a rating test", simulate({ qualities: TEN_MODELS, judges: FAIR.slice(0, 3), topics: 5, scale: "rating" })],
    ["a test with one judge", simulate({ qualities: { "a/x": 0.5, "b/y": 0.4 }, judges: FAIR.slice(0, 1), topics: 3 })],
  ])("accepts the statistics of %s", (_, input) => {
    const stats = toStored(computeJuryStats(input));
    expect(validate(juryStatsValidator, stats, { throw: true })).toBe(true);
    expect(fromStored(stats).models.length).toBeGreaterThan(0);
  });

  it("accepts the statistics of a test with no scores yet", () => {
    const input = simulate({ qualities: { "a/x": 0.5 }, judges: [], topics: 2 });
    expect(
      validate(juryStatsValidator, computeJuryStats({ ...input, judges: ["openai/judge"] }), { throw: true }),
    ).toBe(true);
  });

  it("rejects a statistics object missing its summary", () => {
    const { summary: _summary, ...rest } = computeJuryStats(
      simulate({ qualities: { "a/x": 0.5 }, judges: FAIR.slice(0, 2), topics: 2 }),
    );
    expect(validate(juryStatsValidator, rest)).toBe(false);
  });
});
