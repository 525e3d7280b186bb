import { describe, expect, test } from "vitest";
import {
  allowedInFlight,
  BACK_OFF,
  fairShare,
  initialConcurrency,
  latencyHolds,
  nextConcurrency,
  type ConcurrencyLimits,
  type ConcurrencyState,
  type GatewayEvent,
} from "./concurrency";

const limits: ConcurrencyLimits = { start: 8, max: 256 };

function feed(state: ConcurrencyState, events: GatewayEvent[], now = 0): ConcurrencyState {
  return events.reduce((current, event) => nextConcurrency(current, event, limits, now), state);
}

/**
 * A gateway that answers `limit` calls at once (each after `latencyMs`) and refuses more with
 * 429 + Retry-After, driven by the controller for `durationMs`: what a worker's pool does.
 */
function simulate(limit: number, latencyMs: number, durationMs: number, max = 256) {
  const bounds = { start: 8, max };
  let state = initialConcurrency(bounds);
  const landings: number[] = []; // end times of calls in flight
  const log: { at: number; ok: boolean }[] = [];
  let peak = 0;
  for (let now = 0; now < durationMs; now += 10) {
    for (let index = landings.length - 1; index >= 0; index--) {
      if (landings[index]! <= now) {
        landings.splice(index, 1);
        state = nextConcurrency(state, { kind: "success", latencyMs }, bounds, now);
        log.push({ at: now, ok: true });
      }
    }
    while (landings.length < allowedInFlight(state, bounds, now)) {
      if (landings.length >= limit) {
        state = nextConcurrency(state, { kind: "rateLimited", retryAfterMs: 1000 }, bounds, now, latencyMs);
        log.push({ at: now, ok: false });
        break;
      }
      landings.push(now + latencyMs);
      peak = Math.max(peak, landings.length);
    }
  }
  return { state, log, peak };
}

describe("adaptive concurrency", () => {
  test("starts at the safe level, within the test's share", () => {
    expect(allowedInFlight(initialConcurrency(limits), limits, 0)).toBe(8);
    expect(allowedInFlight(initialConcurrency({ start: 8, max: 4 }), { start: 8, max: 4 }, 0)).toBe(4);
  });

  test("grows by one per success before any back-off (doubling per round trip) and never past its share", () => {
    const grown = feed(
      initialConcurrency(limits),
      Array.from({ length: 8 }, () => ({ kind: "success", latencyMs: 900 })),
    );
    expect(allowedInFlight(grown, limits, 0)).toBe(16);
    const capped = feed(
      grown,
      Array.from({ length: 1000 }, () => ({ kind: "success", latencyMs: 900 })),
    );
    expect(allowedInFlight(capped, limits, 0)).toBe(256);
  });

  test("backs off multiplicatively on a 429, a time-out or a 5xx, once per overload", () => {
    const at20 = { ...initialConcurrency(limits), level: 20 };
    for (const event of [{ kind: "timeout" }, { kind: "serverError" }, { kind: "rateLimited" }] as GatewayEvent[]) {
      const backed = nextConcurrency(at20, event, limits, 1_000, 5_000);
      expect(backed.level).toBe(Math.floor(20 * BACK_OFF));
      // The other calls of the same burst failing within the hold do not cut it again (a 429
      // only keeps it under the level it came at).
      expect(nextConcurrency(backed, event, limits, 2_000).level).toBe(
        event.kind === "rateLimited" ? backed.level - 1 : backed.level,
      );
      // After it, a new failure does.
      expect(nextConcurrency(backed, event, limits, 7_000).level).toBeLessThan(backed.level);
    }
  });

  test("a 429 pauses new calls for its Retry-After and remembers the level it came at", () => {
    const at20 = { ...initialConcurrency(limits), level: 20 };
    const limited = nextConcurrency(at20, { kind: "rateLimited", retryAfterMs: 2_000 }, limits, 1_000);
    expect(limited.ceiling).toBe(20);
    expect(allowedInFlight(limited, limits, 2_999)).toBe(0);
    expect(allowedInFlight(limited, limits, 3_000)).toBe(14);
  });

  test("does not grow while latency rises past twice its best (the gateway is queueing)", () => {
    let state = feed(
      initialConcurrency(limits),
      Array.from({ length: 20 }, () => ({ kind: "success", latencyMs: 1_000 })),
    );
    const level = state.level;
    for (let index = 0; index < 40; index++)
      state = nextConcurrency(state, { kind: "success", latencyMs: 10_000 }, limits, 0);
    expect(latencyHolds(state)).toBe(false);
    expect(state.level).toBeLessThan(level + 10);
    expect(state.level).toBe(
      feed(state, [{ kind: "success", latencyMs: 10_000 }]).level, // held
    );
  });

  test.each([1_000, 9_100])(
    "against a gateway that allows 16 at once (%i ms a call): reaches 16, never over, under 2%% 429 after 10 s",
    (latencyMs) => {
      const duration = 300_000;
      const { log, peak, state } = simulate(16, latencyMs, duration);
      expect(peak).toBe(16);
      const late = log.filter((entry) => entry.at >= 10_000);
      const refused = late.filter((entry) => !entry.ok).length;
      expect(refused / late.length).toBeLessThanOrEqual(0.02);
      // Throughput after 10 s: within 1.2 of 16 calls per latency.
      const answered = late.filter((entry) => entry.ok).length;
      expect(answered / (((duration - 10_000) / latencyMs) * 16)).toBeGreaterThanOrEqual(1 / 1.2);
      expect(state.ceiling).toBeGreaterThanOrEqual(16);
    },
  );

  test("the deployment's cap is shared evenly by the running tests", () => {
    expect(fairShare(256, 1)).toBe(256);
    expect(fairShare(256, 10)).toBe(25);
    expect(fairShare(4, 10)).toBe(1);
    expect(fairShare(256, 0)).toBe(256);
  });
});
