// Every table kept per test has its entry in the registry that the restart and the deletion act
// on: a new table with an index on the test and no entry fails the first test, so its rows can
// no longer be left behind by a deletion or counted again after a restart.
import { describe, expect, test } from "vitest";
import schema from "../../schema";
import { PER_TEST_TABLES } from "./tables";

type Index = { indexDescriptor: string; fields: string[] };

function indexesOf(table: string): Index[] {
  const definition = (schema.tables as Record<string, { " indexes": () => Index[] }>)[table];
  return definition ? definition[" indexes"]() : [];
}

/** Tables with an index that begins with the test: rows kept per test. */
const keyedByTest = Object.keys(schema.tables).filter((table) =>
  indexesOf(table).some((index) => index.fields[0] === "testId"),
);

describe("the per-test registry", () => {
  test("lists every table with an index on the test", () => {
    const listed = new Set(Object.keys(PER_TEST_TABLES));
    expect(keyedByTest.filter((table) => !listed.has(table))).toEqual([]);
  });

  test("reads each table by one of its indexes that begins with the test (presence: its room)", () => {
    for (const [table, entry] of Object.entries(PER_TEST_TABLES)) {
      const index = indexesOf(table).find((candidate) => candidate.indexDescriptor === entry.index);
      expect({ table, first: index?.fields[0] }).toEqual({
        table,
        first: table === "presence" || table === "presenceSessions" ? "room" : "testId",
      });
    }
  });

  test("keeps money records through a deletion, and the test's job and links through a restart", () => {
    const unlinked = Object.entries(PER_TEST_TABLES)
      .filter(([, entry]) => entry.delete === "unlink")
      .map(([table]) => table);
    expect(unlinked.sort()).toEqual(["creditTransactions", "payments"]);
    for (const table of ["jobs", "payments", "creditTransactions", "shares", "testSummaries"] as const)
      expect({ table, restart: PER_TEST_TABLES[table].restart }).toEqual({ table, restart: "keep" });
  });
});
