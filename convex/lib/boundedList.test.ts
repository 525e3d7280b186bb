// takeWithinBytes: a list stops at its row count or at its byte budget, whichever comes first.
import { describe, expect, test } from "vitest";
import { takeWithinBytes } from "./boundedList";
import { LIST_READ_BYTES, storedBytes } from "./limits";

async function* rows(count: number, size: number) {
  for (let index = 0; index < count; index++) yield { index, text: "x".repeat(size) };
}

describe("takeWithinBytes", () => {
  test("small rows: the row count ends the list", async () => {
    const { rows: taken, cutByBytes, bytes } = await takeWithinBytes(rows(1000, 100), 500);
    expect(taken).toHaveLength(500);
    expect(cutByBytes).toBe(false);
    expect(bytes).toBe(500 * storedBytes({ index: 0, text: "x".repeat(100) }) + 90 * 1 + 400 * 2);
  });

  test("large rows: the budget ends the list, at most one row past it", async () => {
    const size = 256 * 1024;
    const { rows: taken, cutByBytes, bytes } = await takeWithinBytes(rows(500, size), 500);
    expect(cutByBytes).toBe(true);
    expect(taken.length).toBe(Math.ceil(LIST_READ_BYTES / (size + 25)));
    expect(bytes).toBeGreaterThanOrEqual(LIST_READ_BYTES);
    expect(bytes).toBeLessThan(LIST_READ_BYTES + size + 100);
    expect(taken.map((row) => row.index)).toEqual([...taken.keys()]);
  });

  test("a source shorter than the count is read to its end; a count of 0 reads nothing", async () => {
    expect((await takeWithinBytes(rows(3, 10), 10)).rows).toHaveLength(3);
    expect((await takeWithinBytes(rows(3, 10), 0)).rows).toHaveLength(0);
  });
});
