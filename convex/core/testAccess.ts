// Who may do what with a test: the one access check of every public function
// that takes a testId. A personal test is its owner's alone. A team test belongs to the team:
// owners and members act on it (cancel, delete, share), viewers read it (results, monitor,
// exports), and everyone else, removed members included, is refused. The membership is read on
// every call (one indexed read), so a removed member is refused at once.
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { fail, requireTeamRole } from "../functions";
import { hasRole, TEAM_MESSAGES } from "../lib/teams";
import { membershipOf } from "./teams";
import { ownerRowOf } from "./testOwners";
import { readTestNames } from "./testNames";
import type { TestNames } from "../lib/testNames";

/** read: results, monitor, exports, presence; act: cancel, delete, share. */
export type TestAccess = "read" | "act";

export const TEST_NOT_FOUND = "Test not found.";

/** What the user may do with the test: "act" ⊃ "read", or null when it is none of their business. */
export async function testAccessOf(
  ctx: QueryCtx,
  test: Pick<Doc<"tests">, "userId" | "teamId">,
  userId: Id<"users">,
): Promise<TestAccess | null> {
  if (test.teamId === undefined) return test.userId === userId ? "act" : null;
  const membership = await membershipOf(ctx, test.teamId, userId);
  if (membership === null) return null;
  return hasRole(membership.role, "member") ? "act" : "read";
}

/**
 * The test when the user may `need` it. Not theirs to see (another person's test, no such test):
 * NOT_FOUND, which tells nothing about other people's tests; a team test of a team they are not
 * or no longer in: NOT_FOUND saying so (testAccessLost); a viewer asking to act: FORBIDDEN.
 */
export async function requireTest(
  ctx: QueryCtx,
  userId: Id<"users">,
  testId: Id<"tests">,
  need: TestAccess,
): Promise<Doc<"tests">> {
  const test = await ctx.db.get("tests", testId);
  await requireAccess(ctx, userId, test, need);
  return test!;
}

/** What an access check needs of a test: whose it is, and its status. */
export type TestAccessRow = Pick<Doc<"tests">, "userId" | "teamId" | "status"> & { testId: Id<"tests"> };

/**
 * requireTest's check on the test's small access row (core/testOwners.ts), never the test with
 * its configuration: a query that shows no figure of the test's row re-runs with neither its
 * folds nor its configuration's size. A test written before access rows existed (until
 * history:migrateTestSummaries ran) is checked on its own row.
 */
export async function requireTestAccess(
  ctx: QueryCtx,
  userId: Id<"users">,
  testId: Id<"tests">,
  need: TestAccess,
): Promise<TestAccessRow> {
  const row = await accessRowOf(ctx, testId);
  await requireAccess(ctx, userId, row, need);
  return row!;
}

/**
 * requireTestAccess, and what the test's pages name things by (its names row, core/testNames.ts):
 * the queries that show names (answers, judgements, jury figures) re-run while the test runs and
 * read neither its configuration nor its folds.
 */
export async function requireTestNames(
  ctx: QueryCtx,
  userId: Id<"users">,
  testId: Id<"tests">,
  need: TestAccess,
): Promise<{ access: TestAccessRow; names: TestNames }> {
  const access = await requireTestAccess(ctx, userId, testId, need);
  const names = await readTestNames(ctx, testId);
  if (names === null) fail("NOT_FOUND", TEST_NOT_FOUND);
  return { access, names };
}

/** The test's access row; null when there is no such test. */
export async function accessRowOf(ctx: QueryCtx, testId: Id<"tests">): Promise<TestAccessRow | null> {
  const row = await ownerRowOf(ctx, testId);
  if (row !== null) return row;
  const test = await ctx.db.get("tests", testId);
  return test === null ? null : { testId: test._id, userId: test.userId, teamId: test.teamId, status: test.status };
}

/**
 * The access rows of the chosen space's tests in one status, newest first (not their summaries,
 * which the folds write): the personal range (by the starter) also holds the team tests the
 * caller started: callers keep those whose teamId is the space's.
 */
export async function ownersOfSpaceByStatus(
  ctx: QueryCtx & { user: Doc<"users"> },
  teamId: Id<"teams"> | undefined,
  status: Doc<"tests">["status"],
) {
  if (teamId === undefined) {
    const userId = ctx.user._id;
    return ctx.db
      .query("testOwners")
      .withIndex("by_user_status_created", (q) => q.eq("userId", userId).eq("status", status));
  }
  await requireTeamRole(ctx, teamId, "viewer");
  return ctx.db
    .query("testOwners")
    .withIndex("by_team_status_created", (q) => q.eq("teamId", teamId).eq("status", status));
}

/**
 * requireTest's check on what says whose a test is (the test, or a row that copies its owner and
 * team, such as its monitor row), without reading the test: refused as requireTest refuses.
 */
export async function requireAccess(
  ctx: QueryCtx,
  userId: Id<"users">,
  owner: Pick<Doc<"tests">, "userId" | "teamId"> | null,
  need: TestAccess,
): Promise<void> {
  const access = owner === null ? null : await testAccessOf(ctx, owner, userId);
  if (owner === null || access === null) {
    // A team test's pages left open by a removed member move to the access-lost screen.
    fail("NOT_FOUND", owner?.teamId === undefined ? TEST_NOT_FOUND : TEAM_MESSAGES.testAccessLost);
  }
  if (need === "act" && access !== "act") fail("FORBIDDEN", TEAM_MESSAGES.viewersRead);
}

/**
 * The summaries (core/testSummaries.ts: what a list shows, never a configuration) of the chosen
 * space's tests, newest first by creation: the caller's personal tests (teamId absent), or the
 * team's tests when the caller is in the team (NOT_FOUND otherwise). One membership read, then
 * one index range: the reads do not grow with the teams or members. Lists take from it within a
 * byte budget (lib/boundedList.ts takeWithinBytes).
 */
export async function summariesOfSpace(ctx: QueryCtx & { user: Doc<"users"> }, teamId: Id<"teams"> | undefined) {
  if (teamId === undefined) {
    const userId = ctx.user._id;
    return ctx.db
      .query("testSummaries")
      .withIndex("by_user_team_created", (q) => q.eq("userId", userId).eq("teamId", undefined));
  }
  await requireTeamRole(ctx, teamId, "viewer");
  return ctx.db.query("testSummaries").withIndex("by_team_created", (q) => q.eq("teamId", teamId));
}
