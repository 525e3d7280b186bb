// The batcher's bounds and its failure rule, with a send that records what it was given.
import { describe, expect, test } from "vitest";
import { RECORD_ATTEMPTS, RecordBatcher } from "./recordBatcher";

const noPause = async () => {};

describe("RecordBatcher", () => {
  test("what lands within the window goes in one batch, cut at its rows and bytes", async () => {
    const sent: number[][] = [];
    const batcher = new RecordBatcher<number>(
      async (entries) => {
        sent.push(entries);
      },
      (entry) => entry,
      noPause,
      { windowMs: 20, maxRows: 3, maxBytes: 100 },
    );
    // 4 rows: 3 then 1 (rows); 60 + 50 bytes: cut before the 50 (bytes).
    await Promise.all([1, 2, 3, 4].map((entry) => batcher.add(entry)));
    await Promise.all([60, 50].map((entry) => batcher.add(entry)));
    expect(sent).toEqual([[1, 2, 3], [4], [60], [50]]);
  });

  test("a batch that keeps failing is sent one result at a time: only the bad one is given up", async () => {
    const sent: string[][] = [];
    const batcher = new RecordBatcher<string>(
      async (entries) => {
        sent.push(entries);
        if (entries.includes("bad")) throw new Error("conflict");
      },
      () => 1,
      noPause,
      { windowMs: 5, maxRows: 10, maxBytes: 100 },
    );
    const outcomes = await Promise.allSettled(["a", "bad", "c"].map((entry) => batcher.add(entry)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const batches = sent.filter((entries) => entries.length === 3);
    expect(batches).toHaveLength(RECORD_ATTEMPTS);
    expect(sent.filter((entries) => entries.length === 1 && entries[0] === "bad")).toHaveLength(RECORD_ATTEMPTS);
  });
});
