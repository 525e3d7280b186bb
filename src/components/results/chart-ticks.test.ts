import { describe, expect, it } from "vitest";

import { labelSides, niceTicks, shortLabel, wrapLabel } from "./chart-ticks";

describe("niceTicks", () => {
  it("counts a 0-10 score axis in twos, never 0, 3, 6, 9, 10", () => {
    expect(niceTicks(10)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(10, 3)).toEqual([0, 5, 10]);
  });

  it("covers the largest value with evenly spaced ticks in steps of 1, 2, 2.5 or 5 times a power of ten", () => {
    expect(niceTicks(7.3)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(0.0042)).toEqual([0, 0.001, 0.002, 0.003, 0.004, 0.005]);
    expect(niceTicks(12.5, 6)).toEqual([0, 2.5, 5, 7.5, 10, 12.5]);
    expect(niceTicks(95)).toEqual([0, 20, 40, 60, 80, 100]);
    for (const max of [0.3, 1, 3, 9, 10, 33, 410, 7777]) {
      const ticks = niceTicks(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      const step = ticks[1]! - ticks[0]!;
      const mantissa = step / 10 ** Math.floor(Math.log10(step));
      expect([1, 2, 2.5, 5]).toContainEqual(Number(mantissa.toFixed(6)));
      ticks.forEach((tick, index) => expect(tick).toBeCloseTo(index * step, 9));
    }
  });

  it("has an axis for nothing to show", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });
});

describe("wrapLabel", () => {
  it("breaks a name at spaces into lines of at most the given length, keeping every character", () => {
    expect(wrapLabel("GPT-4o", 16)).toEqual(["GPT-4o"]);
    expect(wrapLabel("Meta: Llama 3.3 70B Instruct", 16)).toEqual(["Meta: Llama 3.3", "70B Instruct"]);
    expect(wrapLabel("Anthropic: Claude 3.5 Haiku Instruct Turbo", 16)).toEqual([
      "Anthropic:",
      "Claude 3.5 Haiku",
      "Instruct Turbo",
    ]);
  });

  it("cuts a word longer than a line where the line ends", () => {
    expect(wrapLabel("x-ai/grok-4-fast-reasoning-preview", 16)).toEqual(["x-ai/grok-4-fast", "-reasoning-previ", "ew"]);
    expect(wrapLabel("A verylongwordthatgoeson", 10)).toEqual(["A", "verylongwo", "rdthatgoes", "on"]);
  });
});

describe("shortLabel", () => {
  it("keeps a short name and cuts a long one with an ellipsis", () => {
    expect(shortLabel("GPT-4o")).toBe("GPT-4o");
    expect(shortLabel("Meta: Llama 3.3 70B Instruct", 18)).toBe("Meta: Llama 3.3 7…");
    expect(shortLabel("Meta: Llama 3.3 70B Instruct", 18)).toHaveLength(18);
  });
});

describe("labelSides", () => {
  it("puts labels above their points, and a close point's label on a free side", () => {
    const range = { x: 0.01, y: 10 };
    // Two models at almost the same cost and score, and one far away.
    const sides = labelSides(
      [
        { x: 0.002, y: 8.1 },
        { x: 0.0021, y: 8.0 },
        { x: 0.008, y: 3 },
        { x: 0.00205, y: 8.05 },
      ],
      range,
    );
    expect(sides).toEqual(["top", "bottom", "top", "right"]);
  });
});
