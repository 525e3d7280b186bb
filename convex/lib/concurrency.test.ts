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
import { SETTING_DEFAULTS } from "../core/settings";

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
        const inFlight = landings.length + 1; // the refused call included, as the worker counts it
        state = nextConcurrency(state, { kind: "rateLimited", retryAfterMs: 1000, inFlight }, bounds, now, latencyMs);
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
      // without the count of calls out only keeps it under the level it came at).
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
    "against a gateway that allows 16 at once (%i ms a call): reaches 16, never over, under 2 in 100 refused after 10 s",
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

/**
 * The 650-call test of bench/deployment.ts as a worker's pool runs it: 50 persona × topic pairs
 * of 10 generation calls (the catalog's generator latencies × `scale`, ± 20%), oldest first; a
 * pair's 3 judge calls (judges' latencies) appear `reportMs` after its last answer. The gateway
 * refuses calls beyond `limit` at once (429, Retry-After 1 s); the pool sends a refused call
 * again when the controller allows. Returns the wall time, the critical path (slowest
 * generation + slowest judge call), the share of calls refused after 10 s and the level's course.
 */
function simulateTest(options: { start: number; max: number; limit: number | null; scale: number }) {
  const bounds = { start: options.start, max: options.max };
  const generators = [700, 800, 600, 650, 750, 900, 800, 1500, 1300, 2200];
  const judges = [1400, 700, 3500];
  let seed = 7;
  const jitter = () => 0.8 + 0.4 * ((seed = (seed * 16807) % 2147483647) / 2147483647);
  type Call = { key: string; ms: number; pair: number; judge: boolean };
  const pending: Call[] = [];
  for (let pair = 0; pair < 50; pair++)
    generators.forEach((ms, model) =>
      pending.push({ key: `g${model}`, ms: ms * options.scale * jitter(), pair, judge: false }),
    );
  const total = pending.length + 50 * judges.length;
  const answered = new Map<number, number>();
  const judgeCalls: { at: number; calls: Call[] }[] = [];
  const flying: { call: Call; end: number }[] = [];
  const refused: Call[] = [];
  let state = initialConcurrency(bounds);
  let slowest = { generation: 0, judge: 0 };
  let done = 0;
  let late = { sent: 0, refused: 0 };
  const levels: { at: number; level: number }[] = [];
  let now = 0;
  const send = (call: Call) => {
    if (now >= 10_000) late = { ...late, sent: late.sent + 1 };
    if (options.limit !== null && flying.length >= options.limit) {
      if (now >= 10_000) late = { ...late, refused: late.refused + 1 };
      const inFlight = flying.length + 1;
      state = nextConcurrency(state, { kind: "rateLimited", retryAfterMs: 1_000, inFlight }, bounds, now);
      refused.push(call);
      return;
    }
    flying.push({ call, end: now + call.ms });
  };
  for (; done < total && now < 3_600_000; now += 10) {
    for (let index = flying.length - 1; index >= 0; index--) {
      const { call, end } = flying[index]!;
      if (end > now) continue;
      flying.splice(index, 1);
      done++;
      state = nextConcurrency(state, { kind: "success", latencyMs: call.ms, key: call.key }, bounds, now);
      if (call.judge) slowest = { ...slowest, judge: Math.max(slowest.judge, call.ms) };
      else {
        slowest = { ...slowest, generation: Math.max(slowest.generation, call.ms) };
        answered.set(call.pair, (answered.get(call.pair) ?? 0) + 1);
        if (answered.get(call.pair) === generators.length)
          judgeCalls.push({
            at: now + 150,
            calls: judges.map((ms, model) => ({
              key: `j${model}`,
              ms: ms * options.scale * jitter(),
              pair: call.pair,
              judge: true,
            })),
          });
      }
    }
    for (const batch of judgeCalls.filter((entry) => entry.at <= now)) pending.push(...batch.calls);
    judgeCalls.splice(0, judgeCalls.length, ...judgeCalls.filter((entry) => entry.at > now));
    let free = allowedInFlight(state, bounds, now) - flying.length;
    while (free > 0 && refused.length + pending.length > 0) {
      send((refused.length > 0 ? refused : pending).shift()!);
      free = allowedInFlight(state, bounds, now) - flying.length;
    }
    if (now % 1_000 === 0) levels.push({ at: now, level: state.level });
  }
  return {
    wall: now,
    critical: slowest.generation + slowest.judge,
    lateRefused: late.refused / Math.max(1, late.sent),
    levels,
  };
}

describe("adaptive concurrency on a test's mix of models", () => {
  test("a slow model's answers after the fast ones' are not taken for a queueing gateway", () => {
    // The fastest models answer first (2 s), then the slowest (21 s): each against its own kind.
    let state = initialConcurrency(limits);
    const mixed: GatewayEvent[] = [
      ...Array.from({ length: 8 }, (): GatewayEvent => ({ kind: "success", latencyMs: 2_000, key: "fast" })),
      ...Array.from({ length: 8 }, (): GatewayEvent => ({ kind: "success", latencyMs: 21_000, key: "slow" })),
    ];
    state = feed(state, mixed);
    expect(latencyHolds(state)).toBe(true);
    expect(allowedInFlight(state, limits, 0)).toBe(limits.start + 16);
    // The same model slowing down past twice its own usual latency still stops growth.
    const queueing = feed(
      state,
      Array.from({ length: 20 }, (): GatewayEvent => ({ kind: "success", latencyMs: 6_000, key: "fast" })),
    );
    expect(latencyHolds(queueing)).toBe(false);
  });

  test("a burst refused together backs off once, to under the calls that were out", () => {
    const bounds = { start: 64, max: 256 };
    let state = initialConcurrency(bounds);
    // 64 sent at once to a gateway allowing 16: the 48 refusals come back with 64, 63, … 17 out.
    for (let out = 64; out > 16; out--)
      state = nextConcurrency(state, { kind: "rateLimited", retryAfterMs: 1_000, inFlight: out }, bounds, 0, 1_000);
    expect(state.ceiling).toBe(17);
    expect(allowedInFlight(state, bounds, 1_000)).toBe(16);
  });

  test("the 650-call test at catalog latencies × 8 reaches 256 fast: wall ≤ 1.4 × critical path", () => {
    const run = simulateTest({ start: SETTING_DEFAULTS.perTestConcurrency, max: 256, limit: null, scale: 8 });
    expect(run.wall / run.critical).toBeLessThanOrEqual(1.4);
    // 256 within 20 s of the start.
    expect(run.levels.find((entry) => entry.level >= 256)?.at).toBeLessThanOrEqual(20_000);
  });

  test.each([1, 8])(
    "the 650-call test against a gateway allowing 16 at once (latencies × %i): ≤ 2 in 100 refused after 10 s, wall ≤ 1.2 × ceil(calls / 16) × mean latency",
    (scale) => {
      const run = simulateTest({ start: SETTING_DEFAULTS.perTestConcurrency, max: 256, limit: 16, scale });
      expect(run.lateRefused).toBeLessThanOrEqual(0.02);
      // Mean latency of the calls: 500 generation calls, 150 judge calls (jitter averages out).
      const mean = ((500 * 1020 + 150 * 1867) / 650) * scale;
      expect(run.wall).toBeLessThanOrEqual(1.2 * Math.ceil(650 / 16) * mean);
    },
  );
});
