// The batched cleanup after a test is deleted (core/testDeletion.ts): each run removes a batch
// of the test's rows, within a budget of rows and bytes, and schedules the next run while any
// remain; a cron resumes a cleanup whose batches stopped.
import { v } from "convex/values";
import { internalMutation } from "./functions";
import { deleteChildrenBatch, resumeStalledDeletions } from "./core/testDeletion";

export const deleteChildren = internalMutation({
  // deletionId: the test's deletion row (absent in batches scheduled before deletion rows existed).
  args: { testId: v.id("tests"), deletionId: v.optional(v.id("testDeletions")) },
  returns: v.null(),
  handler: async (ctx, { testId, deletionId }) => {
    await deleteChildrenBatch(ctx, testId, deletionId);
    return null;
  },
});

/** The cron's sweep: cleanups of deleted tests whose batches stopped start again. */
export const resumeStalled = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => await resumeStalledDeletions(ctx),
});
