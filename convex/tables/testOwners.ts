// A test's access row: declarations only, imported by convex/schema.ts. Whose the test is (its
// starter and team) and its status, copied from the test where those change
// (core/testOwners.ts, beside its summary), never by the folds of its run: the access checks of
// the pages a running test has open (results, notes, checks, refund, the monitor's choice of
// test) read these few bytes instead of the test with its configuration (up to 256 KB), and a
// fold re-runs none of them.
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { testStatus } from "../validators";

export const testOwnerTables = {
  testOwners: defineTable({
    testId: v.id("tests"),
    userId: v.id("users"),
    /** The team the test belongs to; absent for a personal test. */
    teamId: v.optional(v.id("teams")),
    /** The test's _creationTime: the monitor's newest-first choice of test. */
    createdAt: v.number(),
    status: testStatus,
    /** tests.awaitingPayment: with status pending, an unpaid draft. */
    awaitingPayment: v.boolean(),
  })
    .index("by_test", ["testId"])
    // The monitor's current test: a user's (personal range, as testSummaries') or a team's, by status.
    .index("by_user_status_created", ["userId", "status", "createdAt"])
    .index("by_team_status_created", ["teamId", "status", "createdAt"]),
};
