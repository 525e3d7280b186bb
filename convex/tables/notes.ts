// The notes tables: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const noteTables = {
  /** A short note by a teammate (or a personal test's owner) on one answer of a test. */
  notes: defineTable({
    testId: v.id("tests"),
    responseId: v.id("responses"),
    userId: v.id("users"),
    body: v.string(),
    createdAt: v.number(),
  }).index("by_test", ["testId"]),
};
