import type { Problem } from "../lib/types";
import { fail } from "../functions";

/** Turns the first problem found by a shared lib validator into the user-facing error. */
export function rejectProblems(problems: readonly Problem[]): void {
  const first = problems[0];
  if (first) fail("INVALID_INPUT", first.message, { field: first.field });
}
