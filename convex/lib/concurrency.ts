// How many gateway calls a test keeps in flight: an adaptive controller in the manner of TCP's
// congestion control. It starts at a safe level; while calls succeed and their latency holds it
// grows — by one call per success up to the highest level the gateway has allowed so far (a
// doubling per round trip), then by one call per round trip, probing gently for more; a 429,
// a time-out or a 5xx backs it off multiplicatively. A 429 also remembers the level it came at
// (the gateway's limit, roughly) and pauses new calls for its Retry-After. The level never
// exceeds the test's share of the deployment-wide cap. Pure: the worker feeds it events.
//
// "Latency holds" is judged per kind of call: a test mixes models of very different speeds (2 s
// and 21 s), and the first answers come from the fastest, so one average against the best
// average seen would read the slow models' first answers as a queueing gateway and stop growth.
// Each success is compared with the usual latency of its own kind (model and call kind, `key`).

export interface ConcurrencyLimits {
  /** The level a test starts at (the `perTestConcurrency` setting). */
  readonly start: number;
  /** The test's share of the deployment-wide cap (`maxGatewayConcurrency` ÷ running tests). */
  readonly max: number;
}

/** One kind of call's latency: its moving average and the lowest such average seen, in ms. */
export interface KindLatency {
  readonly averageMs: number;
  readonly bestMs: number;
}

export interface ConcurrencyState {
  /** Calls allowed in flight; fractional while growing by one per round trip. */
  readonly level: number;
  /** Whether it has backed off yet: before, it grows by one per success (slow start). */
  readonly backedOff: boolean;
  /** The level at which the gateway last answered 429, above which it probes slowly. */
  readonly ceiling: number | null;
  /** Latency of recent successes (moving average, all kinds), in ms: about one round trip. */
  readonly latencyMs: number | null;
  /** Each kind of call's latency, by the success events' `key`. */
  readonly kinds: Readonly<Record<string, KindLatency>>;
  /** Moving average of each success's latency ÷ its kind's best: 1 when the gateway is not queueing. */
  readonly slowdown: number | null;
  /** No back-off again before this time: one overload is one back-off, not one per call in flight. */
  readonly holdUntil: number;
  /** No new call before this time (a 429's Retry-After). */
  readonly pausedUntil: number;
}

/** A gateway exchange as the controller sees it. */
export type GatewayEvent =
  /** `key` names the kind of call (e.g. model and generation or judgement); one kind if absent. */
  | { readonly kind: "success"; readonly latencyMs: number; readonly key?: string }
  /** `inFlight`: the caller's calls out when it was refused, itself included (the limit, roughly). */
  | { readonly kind: "rateLimited"; readonly retryAfterMs?: number; readonly inFlight?: number }
  | { readonly kind: "timeout" }
  | { readonly kind: "serverError" };

/** Multiplicative back-off factor. */
export const BACK_OFF = 0.7;
/** Latency "holds" while recent latencies are within this factor of their kinds' best. */
export const LATENCY_TOLERANCE = 2;
/** Weight of the newest sample in the moving averages (all kinds; the slowdown). */
const LATENCY_WEIGHT = 0.1;
/** Weight of the newest sample in one kind's moving average (few samples per kind). */
const KIND_WEIGHT = 0.3;
/** At the level of the last 429 it grows by one call per this many round trips. */
const PROBE_SLOWNESS = 8;
/** The smallest level, and the pause after a 429 without Retry-After. */
export const MIN_LEVEL = 1;
const DEFAULT_PAUSE_MS = 1_000;

const clamp = (level: number, limits: ConcurrencyLimits) =>
  Math.max(MIN_LEVEL, Math.min(Math.max(MIN_LEVEL, limits.max), level));

export function initialConcurrency(limits: ConcurrencyLimits): ConcurrencyState {
  return {
    level: clamp(limits.start, limits),
    backedOff: false,
    ceiling: null,
    latencyMs: null,
    kinds: {},
    slowdown: null,
    holdUntil: 0,
    pausedUntil: 0,
  };
}

/** The whole number of calls that may be in flight now (0 while paused by a Retry-After). */
export function allowedInFlight(state: ConcurrencyState, limits: ConcurrencyLimits, now: number): number {
  if (now < state.pausedUntil) return 0;
  return Math.floor(clamp(state.level, limits));
}

/** Whether recent latencies are within LATENCY_TOLERANCE of their kinds' best (the gateway is not queueing). */
export function latencyHolds(state: Pick<ConcurrencyState, "slowdown">): boolean {
  return state.slowdown === null || state.slowdown <= LATENCY_TOLERANCE;
}

function backOff(state: ConcurrencyState, limits: ConcurrencyLimits, now: number, holdMs: number): ConcurrencyState {
  if (now < state.holdUntil) return state;
  return {
    ...state,
    level: clamp(Math.floor(state.level * BACK_OFF), limits),
    backedOff: true,
    holdUntil: now + holdMs,
  };
}

/**
 * What one success adds: before any back-off, or below the level of the last 429, one call (a
 * doubling per round trip); just at that level, a call per PROBE_SLOWNESS round trips (the
 * gateway's limit is there: few 429s); past it, or after a back-off without a 429, one call
 * per round trip.
 */
function growthStep(state: ConcurrencyState): number {
  const level = Math.max(1, state.level);
  if (state.ceiling === null) return state.backedOff ? 1 / level : 1;
  if (level + 1 < state.ceiling) return 1;
  if (level < state.ceiling + 2) return 1 / (PROBE_SLOWNESS * level);
  return 1 / level;
}

const average = (previous: number | null, sample: number, weight: number) =>
  previous === null ? sample : previous + weight * (sample - previous);

/** The latencies after one success of kind `key`. */
function measured(state: ConcurrencyState, latencyMs: number, key: string): ConcurrencyState {
  const known = state.kinds[key];
  const averageMs = average(known?.averageMs ?? null, latencyMs, KIND_WEIGHT);
  const bestMs = Math.max(1, Math.min(known?.bestMs ?? averageMs, averageMs));
  return {
    ...state,
    latencyMs: average(state.latencyMs, latencyMs, LATENCY_WEIGHT),
    kinds: { ...state.kinds, [key]: { averageMs, bestMs } },
    slowdown: average(state.slowdown, latencyMs / bestMs, LATENCY_WEIGHT),
  };
}

/**
 * The controller after one gateway exchange at `now`. `holdMs` (about one call's latency) is how
 * long after a back-off further failures of calls already in flight are not counted again.
 */
export function nextConcurrency(
  state: ConcurrencyState,
  event: GatewayEvent,
  limits: ConcurrencyLimits,
  now: number,
  holdMs: number = state.latencyMs ?? 1_000,
): ConcurrencyState {
  if (event.kind === "success") {
    const next = measured(state, event.latencyMs, event.key ?? "");
    if (!latencyHolds(next)) return next;
    return { ...next, level: clamp(state.level + growthStep(state), limits) };
  }
  if (event.kind === "rateLimited") {
    const pausedUntil = Math.max(state.pausedUntil, now + (event.retryAfterMs ?? DEFAULT_PAUSE_MS));
    // The calls out when the gateway refused one: its limit, roughly. Not told, the level is
    // taken for it (then each refusal of a burst lowers the level by one).
    const estimate = Math.max(MIN_LEVEL, Math.floor(event.inFlight ?? state.level));
    if (now < state.holdUntil) {
      // The same overload (a burst refused together): no second back-off, but kept under the
      // lowest count of calls out that was refused.
      const ceiling = Math.min(state.ceiling ?? estimate, estimate);
      return { ...state, level: clamp(Math.min(state.level, ceiling - 1), limits), ceiling, pausedUntil };
    }
    const ceiling = Math.max(MIN_LEVEL, Math.min(Math.floor(state.level), estimate));
    return {
      ...state,
      level: clamp(Math.floor(ceiling * BACK_OFF), limits),
      backedOff: true,
      ceiling,
      holdUntil: now + holdMs,
      pausedUntil,
    };
  }
  return backOff(state, limits, now, holdMs);
}

/** Each running test's share of the deployment-wide cap (at least one call each). */
export function fairShare(deploymentCap: number, runningTests: number): number {
  return Math.max(MIN_LEVEL, Math.floor(deploymentCap / Math.max(1, runningTests)));
}
