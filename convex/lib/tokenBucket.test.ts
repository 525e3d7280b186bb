import { describe, expect, test } from "vitest";
import { takeToken, tokensAt, waitForToken } from "./tokenBucket";

const RULE = { capacity: 10, rate: 10, periodMs: 60_000 };

describe("token bucket (Convex rate-limiter's rule)", () => {
  test("a full bucket lets a burst of its capacity through, then one event per refill", () => {
    let state = null as ReturnType<typeof takeToken> | null;
    for (let i = 0; i < 10; i++) {
      expect(waitForToken(state, RULE, 0)).toBe(0);
      state = takeToken(state, RULE, 0);
    }
    // Empty: the next token is 6 s away (10 a minute), 3 s away 3 s later.
    expect(waitForToken(state, RULE, 0)).toBe(6_000);
    expect(waitForToken(state, RULE, 3_000)).toBe(3_000);
    expect(waitForToken(state, RULE, 6_000)).toBe(0);
    // It never holds more than its capacity, however long it rests.
    expect(tokensAt(state, RULE, 3_600_000)).toBe(10);
  });
});
