// Per-user figures of the dashboard home (Total Tests with completed count, AI Responses with
// evaluations, Saved Assets), kept on the user row as tests end so the home reads one document instead of
// scanning every test. A team test counts for its starter (all their tests: the admin's users list,
// billing's Tests Completed), in the starter's team part (teamTestCount, ...: the personal space's
// home shows the figures less these) and on its team's row (the home in the team's space).
// A test ends once (running or pending → completed, failed or cancelled), so each is counted once;
// a test's results do not change after it ends.
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { hasEnded } from "../lib/testStatus";
import { teamSpendRow } from "./teamSpend";
import { syncTestSummary } from "./testSummaries";

type EndedStatus = "completed" | "failed" | "cancelled";

type TestCounters = Pick<Doc<"users">, "testCount" | "completedTestCount" | "responseCount" | "evaluationCount">;

/** The starter's counters that hold the part of each figure coming from team tests. */
const TEAM_PART = {
  testCount: "teamTestCount",
  completedTestCount: "teamCompletedTestCount",
  responseCount: "teamResponseCount",
  evaluationCount: "teamEvaluationCount",
} as const;

type TeamPart = Pick<Doc<"users">, (typeof TEAM_PART)[keyof typeof TEAM_PART]>;

function teamPartOf(user: Doc<"users">): TestCounters {
  return {
    testCount: user.teamTestCount,
    completedTestCount: user.teamCompletedTestCount,
    responseCount: user.teamResponseCount,
    evaluationCount: user.teamEvaluationCount,
  };
}

function asTeamPart(counters: TestCounters): TeamPart {
  const part: TeamPart = {};
  for (const key of Object.keys(counters) as (keyof TestCounters)[]) part[TEAM_PART[key]] = counters[key];
  return part;
}

/** Applies `change` to the counters of the starter (and their team part) and of the test's team, if any. */
async function patchCounters(
  ctx: MutationCtx,
  test: Pick<Doc<"tests">, "userId" | "teamId">,
  change: (row: TestCounters) => TestCounters,
): Promise<void> {
  const inTeam = test.teamId !== undefined;
  const user = await ctx.db.get("users", test.userId);
  if (user)
    await ctx.db.patch("users", user._id, { ...change(user), ...(inTeam ? asTeamPart(change(teamPartOf(user))) : {}) });
  const team = inTeam ? await ctx.db.get("teams", test.teamId!) : null;
  if (team) await ctx.db.patch("teams", team._id, change(team));
}

/** The home's figures in the personal space: the user's figures less the part from team tests. */
export function personalFigures(user: Doc<"users">): TestCounters & { totalSpentCents: number } {
  const less = (all: number | undefined, team: number | undefined) => Math.max(0, (all ?? 0) - (team ?? 0));
  return {
    testCount: less(user.testCount, user.teamTestCount),
    completedTestCount: less(user.completedTestCount, user.teamCompletedTestCount),
    responseCount: less(user.responseCount, user.teamResponseCount),
    evaluationCount: less(user.evaluationCount, user.teamEvaluationCount),
    totalSpentCents: less(user.totalSpentCents, user.teamSpentCents),
  };
}

/** Call where a test reaches its final status, with the test's final counters. */
export async function recordTestEnded(
  ctx: MutationCtx,
  test: Pick<Doc<"tests">, "userId" | "teamId" | "responsesCount" | "evaluationsCount">,
  status: EndedStatus,
): Promise<void> {
  await patchCounters(ctx, test, (row) => ({
    completedTestCount: (row.completedTestCount ?? 0) + (status === "completed" ? 1 : 0),
    responseCount: (row.responseCount ?? 0) + test.responsesCount,
    evaluationCount: (row.evaluationCount ?? 0) + test.evaluationsCount,
  }));
}

/** An unpaid draft: pending and waiting for its checkout. */
export function isDraft(test: Pick<Doc<"tests">, "status" | "awaitingPayment">): boolean {
  return test.status === "pending" && test.awaitingPayment === true;
}

/**
 * A test counts as a run (Total Tests) once it may run: at creation when it needs no payment,
 * or when its payment settles. An unpaid draft (`awaitingPayment`) is not counted.
 */
export async function recordTestRun(ctx: MutationCtx, test: Pick<Doc<"tests">, "userId" | "teamId">): Promise<void> {
  await patchCounters(ctx, test, (row) => ({ testCount: (row.testCount ?? 0) + 1 }));
}

/** Call when a test's payment settles: the draft becomes a run, counted once. */
export async function recordTestPaid(ctx: MutationCtx, testId: Id<"tests">): Promise<void> {
  const test = await ctx.db.get("tests", testId);
  if (!test || test.awaitingPayment !== true) return;
  await ctx.db.patch("tests", testId, { awaitingPayment: undefined });
  await syncTestSummary(ctx, { ...test, awaitingPayment: undefined });
  await recordTestRun(ctx, test);
}

/** Call when a test is deleted, so the home's figures drop it as its list does. */
export async function forgetTestStats(ctx: MutationCtx, test: Doc<"tests">): Promise<void> {
  const ended = hasEnded(test.status);
  await patchCounters(ctx, test, (row) => ({
    // A draft never paid for was never counted.
    testCount: Math.max(0, (row.testCount ?? 0) - (test.awaitingPayment === true ? 0 : 1)),
    ...(ended
      ? {
          completedTestCount: Math.max(0, (row.completedTestCount ?? 0) - (test.status === "completed" ? 1 : 0)),
          responseCount: Math.max(0, (row.responseCount ?? 0) - test.responsesCount),
          evaluationCount: Math.max(0, (row.evaluationCount ?? 0) - test.evaluationsCount),
        }
      : {}),
  }));
}

/** A user's team tests read by the rebuild of their team part. */
export const TEAM_TESTS_REBUILT = 2000;

/**
 * Sets the user's team part (teamTestCount, ..., teamSpentCents) from their team tests and their
 * teamSpend rows, as the live counting would have kept it: for accounts whose team tests predate
 * the team part, whose personal home would otherwise still count them. It sets and never adds,
 * so it is safe to run again.
 */
export async function rebuildTeamPart(ctx: MutationCtx, userId: Id<"users">): Promise<void> {
  const user = await ctx.db.get("users", userId);
  if (!user) return;
  const tests = await ctx.db
    .query("tests")
    // Every team id is a string, and "" sorts before them all (personal tests have none).
    .withIndex("by_user_team", (q) => q.eq("userId", userId).gte("teamId", "" as Id<"teams">))
    .take(TEAM_TESTS_REBUILT);
  const part = { testCount: 0, completedTestCount: 0, responseCount: 0, evaluationCount: 0 };
  const teams = new Set<Id<"teams">>();
  for (const test of tests) {
    if (test.teamId === undefined) continue;
    teams.add(test.teamId);
    if (test.awaitingPayment !== true) part.testCount++;
    if (!hasEnded(test.status)) continue;
    if (test.status === "completed") part.completedTestCount++;
    part.responseCount += test.responsesCount;
    part.evaluationCount += test.evaluationsCount;
  }
  let spentCents = 0;
  for (const teamId of teams) {
    const row = await teamSpendRow(ctx, teamId, userId);
    if (row) spentCents += row.paidCents - row.refundedCents;
  }
  await ctx.db.patch("users", userId, { ...asTeamPart(part), teamSpentCents: Math.max(0, spentCents) });
}

export type SavedAsset = "personas" | "topics";
const COUNTER_FIELD = { personas: "personaCount", topics: "topicCount" } as const;

/**
 * How many personas or topics the user has saved: the counter kept by create and remove, or,
 * for a user saved before the counter existed, a count of the rows (capped per user).
 */
export async function savedAssetCount(
  ctx: QueryCtx,
  user: Doc<"users">,
  kind: SavedAsset,
  cap: number,
): Promise<number> {
  const counter = user[COUNTER_FIELD[kind]];
  if (counter !== undefined) return counter;
  return (
    await ctx.db
      .query(kind)
      .withIndex("by_user", (q) => q.eq("userId", user._id))
      .take(cap)
  ).length;
}

/** Call after inserting or deleting a saved persona or topic, with the count it leaves. */
export async function setSavedAssetCount(
  ctx: MutationCtx,
  user: Doc<"users">,
  kind: SavedAsset,
  count: number,
): Promise<void> {
  await ctx.db.patch("users", user._id, { [COUNTER_FIELD[kind]]: Math.max(0, count) });
}
