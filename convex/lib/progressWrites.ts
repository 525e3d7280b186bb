// When a running test's progress row and monitor row are written again (each write re-runs the
// pages subscribed to it), and the monitor's size of a test.
import { type ProgressConfig, expectedCallsOf } from "./progress";

/**
 * When a running test's counters and progress are folded into its row again (the row the
 * results page and shared viewers re-run on; the monitor has its own, MONITOR_PROGRESS): once
 * enough calls landed since the last write to move it visibly (5% of the calls left, at least 10,
 * at most all that are left), or once the shown figures are `staleMs` old, never more often than
 * `minIntervalMs`. A fast test then writes its row every 10 or so calls, not every second for
 * one or two; a slow one (Starter's 16 calls at once: about one call a second) every 10 s rather
 * than every 3 s, which re-ran every shared viewer about once per 4 calls. (The fold at the end
 * of a run takes every call regardless.)
 */
export const PROGRESS_FOLD = {
  /** Never written more often than this. */
  minIntervalMs: 1_000,
  /** The shown figures are never older than this (counted from the last write). */
  staleMs: 10_000,
  /** Calls that landed worth a write: this share of the calls left … */
  shareOfRemaining: 0.05,
  /** … but at least this many (or every call left, when fewer are). */
  minCalls: 10,
} as const;

/** How many newly landed calls make a running test's progress worth writing (≥ 1). */
export function callsPerProgressWrite(remainingCalls: number): number {
  const remaining = Math.max(0, Math.floor(remainingCalls));
  const wanted = Math.max(PROGRESS_FOLD.minCalls, Math.ceil(remaining * PROGRESS_FOLD.shareOfRemaining));
  return Math.max(1, Math.min(remaining, wanted));
}

/** Whether a running test's progress is written now (see PROGRESS_FOLD). */
export function progressWriteDue(state: {
  /** Milliseconds since its progress was last written. */
  sinceLastWriteMs: number;
  /** Calls that landed since (and are not yet in the row). */
  newCalls: number;
  /** Calls the test still has to make, as of the last write. */
  remainingCalls: number;
}): boolean {
  if (state.sinceLastWriteMs < PROGRESS_FOLD.minIntervalMs) return false;
  if (state.sinceLastWriteMs >= PROGRESS_FOLD.staleMs) return true;
  return state.newCalls >= callsPerProgressWrite(state.remainingCalls);
}

/**
 * When a running test's monitor row (core/monitorProgress.ts) is written again: once enough
 * calls ended since its last write (callsPerMonitorWrite: 5% of the calls left, at least 10, but
 * a small test in at least `minSteps` steps), or, when fewer did, after `slowMs` if anything it
 * shows moved, so a slow tail still moves. The monitor re-runs only on these writes: at most
 * about one per 10 ended calls (a test of under 50 calls: one per fifth of them), plus one per
 * `slowMs` while calls trickle in. (The row goes when the run ends; the monitor then reads the
 * ended test.)
 */
export const MONITOR_PROGRESS = {
  /** The slow fallback: a row with something new is never older than this. */
  slowMs: 10_000,
  /** A small test's monitor still moves in about this many steps (a 6-call test: every 2 calls). */
  minSteps: 5,
} as const;

/** How many newly ended calls make a running test's monitor row worth writing (≥ 1). */
export function callsPerMonitorWrite(remainingCalls: number, totalCalls: number): number {
  const smallTestStep = Math.max(1, Math.ceil(totalCalls / MONITOR_PROGRESS.minSteps));
  return Math.min(callsPerProgressWrite(remainingCalls), smallTestStep);
}

/** Whether a running test's monitor row is written now (see MONITOR_PROGRESS). */
export function monitorWriteDue(state: {
  /** Milliseconds since the row was last written. */
  sinceLastWriteMs: number;
  /** Calls that ended since (by the counters as now folded). */
  newCalls: number;
  /** Calls the test still had to make at the row's last write, and all it makes. */
  remainingCalls: number;
  totalCalls: number;
  /** Whether a figure the monitor shows changed since (counters, phase, errors). */
  changed: boolean;
}): boolean {
  if (state.newCalls > 0 && state.newCalls >= callsPerMonitorWrite(state.remainingCalls, state.totalCalls)) return true;
  return state.changed && state.sinceLastWriteMs >= MONITOR_PROGRESS.slowMs;
}

/** What the monitor says of a test's size: its models, judges, personas, topics and calls. */
export function monitorSizeOf(config: ProgressConfig, missingResponses = 0) {
  const calls = expectedCallsOf(config, missingResponses);
  return {
    models: (config.generatorModels ?? config.models ?? []).length,
    judges: config.generatorModels ? (config.evaluatorModels ?? []).length : 0,
    personas: config.personas.length,
    topics: config.topics.length,
    generationCalls: calls.generation,
    judgingCalls: calls.judging,
  };
}
