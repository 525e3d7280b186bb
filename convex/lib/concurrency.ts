// How many gateway calls a test keeps in flight: an adaptive controller in the manner of TCP's
// congestion control. It starts at a safe level; while calls succeed and their latency holds it
// grows — by one call per success up to the highest level the gateway has allowed so far (a
// doubling per round trip), then by one call per round trip, probing gently for more; a 429,
// a time-out or a 5xx backs it off multiplicatively. A 429 also remembers the level it came at
// (the gateway's limit, roughly) and pauses new calls for its Retry-After. The level never
// exceeds the test's share of the deployment-wide cap. Pure: the worker feeds it events.

export interface ConcurrencyLimits {
  /** The level a test starts at (the `perTestConcurrency` setting). */
  readonly start: number;
  /** The test's share of the deployment-wide cap (`maxGatewayConcurrency` ÷ running tests). */
  readonly max: number;
}

export interface ConcurrencyState {
  /** Calls allowed in flight; fractional while growing by one per round trip. */
  readonly level: number;
  /** Whether it has backed off yet: before, it grows by one per success (slow start). */
  readonly backedOff: boolean;
  /** The level at which the gateway last answered 429, above which it probes slowly. */
  readonly ceiling: number | null;
  /** Latency of recent successes (moving average) and the best such average seen, in ms. */
  readonly latencyMs: number | null;
  readonly bestLatencyMs: number | null;
  /** No back-off again before this time: one overload is one back-off, not one per call in flight. */
  readonly holdUntil: number;
  /** No new call before this time (a 429's Retry-After). */
  readonly pausedUntil: number;
}

/** A gateway exchange as the controller sees it. */
export type GatewayEvent =
  | { readonly kind: "success"; readonly latencyMs: number }
  | { readonly kind: "rateLimited"; readonly retryAfterMs?: number }
  | { readonly kind: "timeout" }
  | { readonly kind: "serverError" };

/** Multiplicative back-off factor. */
export const BACK_OFF = 0.7;
/** Latency "holds" while the recent average is within this factor of the best average seen. */
export const LATENCY_TOLERANCE = 2;
/** Weight of the newest latency in the moving average. */
const LATENCY_WEIGHT = 0.1;
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
    bestLatencyMs: null,
    holdUntil: 0,
    pausedUntil: 0,
  };
}

/** The whole number of calls that may be in flight now (0 while paused by a Retry-After). */
export function allowedInFlight(state: ConcurrencyState, limits: ConcurrencyLimits, now: number): number {
  if (now < state.pausedUntil) return 0;
  return Math.floor(clamp(state.level, limits));
}

/** Whether recent latency is within LATENCY_TOLERANCE of the best seen (the gateway is not queueing). */
export function latencyHolds(state: Pick<ConcurrencyState, "latencyMs" | "bestLatencyMs">): boolean {
  if (state.latencyMs === null || state.bestLatencyMs === null) return true;
  return state.latencyMs <= LATENCY_TOLERANCE * state.bestLatencyMs;
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
    const latencyMs =
      state.latencyMs === null
        ? event.latencyMs
        : state.latencyMs + LATENCY_WEIGHT * (event.latencyMs - state.latencyMs);
    const measured = { ...state, latencyMs, bestLatencyMs: Math.min(state.bestLatencyMs ?? latencyMs, latencyMs) };
    if (!latencyHolds(measured)) return measured;
    return { ...measured, level: clamp(state.level + growthStep(state), limits) };
  }
  if (event.kind === "rateLimited") {
    const pause = event.retryAfterMs ?? DEFAULT_PAUSE_MS;
    // The gateway refused the call that made `level`: that is its limit, roughly.
    const ceiling = Math.max(MIN_LEVEL, Math.floor(state.level));
    const backed = backOff(state, limits, now, holdMs);
    return {
      ...backed,
      // Within the hold of the last back-off it is not cut again, but kept under the new ceiling.
      level: backed === state ? clamp(Math.min(state.level, ceiling - 1), limits) : backed.level,
      ceiling,
      pausedUntil: Math.max(state.pausedUntil, now + pause),
    };
  }
  return backOff(state, limits, now, holdMs);
}

/** Each running test's share of the deployment-wide cap (at least one call each). */
export function fairShare(deploymentCap: number, runningTests: number): number {
  return Math.max(MIN_LEVEL, Math.floor(deploymentCap / Math.max(1, runningTests)));
}
