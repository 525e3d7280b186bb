// Per-user figures of the dashboard home (Total Tests with completed count, AI Responses with
// evaluations), kept on the user row as tests end so the home reads one document instead of
// scanning every test. A test ends once (running or pending → completed, failed or cancelled),
// so each is counted once; a test's results do not change after it ends.
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";

type EndedStatus = "completed" | "failed" | "cancelled";

/** Call where a test reaches its final status, with the test's final counters. */
export async function recordTestEnded(
  ctx: MutationCtx,
  test: Pick<Doc<"tests">, "userId" | "responsesCount" | "evaluationsCount">,
  status: EndedStatus,
): Promise<void> {
  const user = await ctx.db.get("users", test.userId);
  if (!user) return;
  await ctx.db.patch("users", user._id, {
    completedTestCount: (user.completedTestCount ?? 0) + (status === "completed" ? 1 : 0),
    responseCount: (user.responseCount ?? 0) + test.responsesCount,
    evaluationCount: (user.evaluationCount ?? 0) + test.evaluationsCount,
  });
}

/** Call when a test is deleted, so the home's figures drop it as its list does. */
export async function forgetTestStats(ctx: MutationCtx, test: Doc<"tests">): Promise<void> {
  const user = await ctx.db.get("users", test.userId);
  if (!user) return;
  const ended = test.status === "completed" || test.status === "failed" || test.status === "cancelled";
  await ctx.db.patch("users", user._id, {
    testCount: Math.max(0, (user.testCount ?? 0) - 1),
    ...(ended
      ? {
          completedTestCount: Math.max(0, (user.completedTestCount ?? 0) - (test.status === "completed" ? 1 : 0)),
          responseCount: Math.max(0, (user.responseCount ?? 0) - test.responsesCount),
          evaluationCount: Math.max(0, (user.evaluationCount ?? 0) - test.evaluationsCount),
        }
      : {}),
  });
}
