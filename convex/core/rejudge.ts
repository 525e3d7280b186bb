// "Judge again" (issue 22 step 3): a new test over a finished test's answers with another jury —
// other evaluator models or evaluation settings. It is created, priced (judging alone, through
// the same quote), paid and refunded like any test (core/testCreation.ts); when its job starts
// it copies the original's answers instead of generating (core/pipeline/answerCopy.ts).
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { fail } from "../functions";
import { TEST_LIMITS } from "../lib/limits";
import type { TestConfiguration } from "../validators";
import { createTest } from "./testCreation";

/** What a re-judging may change: the jury and how it judges. */
export type Jury = Pick<TestConfiguration, "evaluatorModels" | "evaluationCriteria" | "scoringParameters">;

const SUFFIX = " (judged again)";

/** The re-judging's name: the original's with a suffix, within the name limit. */
export function rejudgeName(originalName: string): string {
  return originalName.slice(0, TEST_LIMITS.maxTestNameLength - SUFFIX.length) + SUFFIX;
}

/** The original's configuration with the new jury: same personas, topics, generators and checks. */
export function rejudgeConfiguration(original: Doc<"tests">, jury: Jury): TestConfiguration {
  return {
    ...original.configuration,
    name: rejudgeName(original.name),
    evaluatorModels: jury.evaluatorModels,
    evaluationCriteria: jury.evaluationCriteria,
    scoringParameters: jury.scoringParameters,
  };
}

export const REJUDGE_MESSAGES = {
  notFinished: "Only a completed test can be judged again.",
  noAnswers: "This test has no answers to judge.",
} as const;

/**
 * Creates the re-judging of `original` (the caller checked that the user may start a test in its
 * space): in the original's space, paid by whoever starts it, priced as its judging alone.
 */
export async function createRejudge(
  ctx: MutationCtx,
  userId: Id<"users">,
  original: Doc<"tests">,
  jury: Jury,
): Promise<{ testId: Id<"tests">; priceCents: number; paymentRequired: boolean }> {
  if (original.status !== "completed") fail("CONFLICT", REJUDGE_MESSAGES.notFinished);
  if (original.responsesCount === 0) fail("CONFLICT", REJUDGE_MESSAGES.noAnswers);
  return await createTest(ctx, userId, rejudgeConfiguration(original, jury), original.teamId, original._id);
}
