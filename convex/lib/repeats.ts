// Repeats for variance (issue 35, item 4): every model × persona × topic cell runs `repeats`
// times, each run a fresh gateway call of its own, judged on its own as a pair is judged. The
// statistics keep the persona × topic pair as their unit, so a cell's repeats are one cluster
// (docs/statistics.md, "Repeats"); lib/stats/repeats.ts measures the spread between them.
import { TEST_LIMITS } from "./limits";
import type { Problem } from "./types";

export const REPEAT_LIMITS = { min: TEST_LIMITS.minRepeats, max: TEST_LIMITS.maxRepeats } as const;

/** Repeats as the run uses them: a whole number, at least 1 (missing → 1). */
export function repeatsOf(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : 1;
}

/** Whether a configuration repeats its cells (repeats > 1). */
export function repeatsCells(config: { readonly repeats?: number }): boolean {
  return repeatsOf(config.repeats) > 1;
}

/** The repeat indexes of a configuration's cells: 0 … repeats − 1. */
export function repeatIndexes(config: { readonly repeats?: number }): number[] {
  return Array.from({ length: repeatsOf(config.repeats) }, (_, index) => index);
}

/**
 * What a call key gets for its repeat: nothing for the first run (a test without repeats keeps
 * the keys it always had), ":r<index>" for the others, so every repeat is its own call.
 */
export function repeatKeySuffix(repeat: number | undefined): string {
  return repeat === undefined || repeat === 0 ? "" : `:r${repeat}`;
}

/**
 * The request seed of a repeated cell's generation call (the OpenAI-compatible `seed` field):
 * a different one per repeat, so a gateway or provider that caches or seeds by request cannot
 * hand a repeat another repeat's reply. Undefined without repeats: the request is unchanged.
 */
export function repeatSeed(repeat: number | undefined): number | undefined {
  return repeat === undefined ? undefined : repeat + 1;
}

export const REPEATS_MESSAGE = `Repeats must be a whole number from ${REPEAT_LIMITS.min} to ${REPEAT_LIMITS.max}.`;

/** What is wrong with a configuration's repeats (absent is 1, always fine). */
export function repeatProblems(repeats: number | undefined): Problem[] {
  if (repeats === undefined) return [];
  const whole = Number.isInteger(repeats);
  return whole && repeats >= REPEAT_LIMITS.min && repeats <= REPEAT_LIMITS.max
    ? []
    : [{ field: "repeats", message: REPEATS_MESSAGE }];
}
