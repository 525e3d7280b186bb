// A test's names row: declarations only, imported by convex/schema.ts. What the pages of a test
// name things by (its models', judges', personas' and topics' names, and its "stop when settled"
// question), copied from its configuration once, with its access row (core/testNames.ts): the
// queries those pages subscribe (answers, judgements, jury figures, the settle line) re-run while
// the test runs, and read these few hundred bytes instead of the test with its configuration (up
// to 256 KB) on each re-run. Never written again: a configuration does not change.
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { modelRef, stopWhenSettled } from "../validators";

export const testNamesFields = {
  testId: v.id("tests"),
  /** configuration.generatorModels' ids and names, in order. */
  generators: v.array(modelRef),
  /** configuration.evaluatorModels' ids and names, in order. */
  judges: v.array(modelRef),
  personas: v.array(v.object({ id: v.string(), name: v.string() })),
  topics: v.array(v.object({ id: v.string(), title: v.string() })),
  /** configuration.stopWhenSettled: the question the settle line words. */
  stopWhenSettled: v.optional(stopWhenSettled),
};

export const testNameTables = {
  testNames: defineTable(testNamesFields).index("by_test", ["testId"]),
};
