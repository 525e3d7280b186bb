// The batched cleanup after a test is deleted (core/testDeletion.ts): each run removes a batch
// of the test's rows per table and schedules the next run while any remain.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation } from "./functions";
import { deleteChildrenBatch } from "./core/testDeletion";

export const deleteChildren = internalMutation({
  args: { testId: v.id("tests") },
  returns: v.null(),
  handler: async (ctx, { testId }) => {
    const more = await deleteChildrenBatch(ctx, testId);
    if (more) await ctx.scheduler.runAfter(0, internal.testDeletion.deleteChildren, { testId });
    return null;
  },
});
