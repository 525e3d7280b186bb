// The batcher's group commit, its bounds and its failure rule, with a send that records what it
// was given (and, where the test says so, returns only when the test lets it).
import { describe, expect, test } from "vitest";
import { CallGate } from "./hostCalls";
import { RECORD_ATTEMPTS, RecordBatcher } from "./recordBatcher";

const noPause = async () => {};
/** Lets every promise settled so far run its handlers (a batch's return, then the next batch's send). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A send that records each batch and returns when `release` is called for it. */
function heldSend<T>() {
  const sent: T[][] = [];
  const releases: (() => void)[] = [];
  return {
    sent,
    send: (entries: T[]) =>
      new Promise<void>((resolve) => {
        sent.push(entries);
        releases.push(resolve);
      }),
    release: (index: number) => releases[index]!(),
  };
}

describe("RecordBatcher", () => {
  test("a result that lands with no batch out is sent at once, not after a window", () => {
    const { sent, send } = heldSend<number>();
    const batcher = new RecordBatcher<number>(send, () => 1, noPause);
    void batcher.add(7);
    // Sent in the same turn: an action killed right after the answer landed has already sent it.
    expect(sent).toEqual([[7]]);
  });

  test("what lands while batches are out goes together when one returns, cut at its rows and bytes", async () => {
    const { sent, send, release } = heldSend<number>();
    const batcher = new RecordBatcher<number>(send, (entry) => entry, noPause, {
      maxRows: 3,
      maxBytes: 100,
      maxOut: 2,
    });
    const added = [1, 2].map((entry) => batcher.add(entry));
    expect(sent).toEqual([[1], [2]]); // two out: each alone
    added.push(...[3, 4, 5, 6, 60, 50].map((entry) => batcher.add(entry)));
    expect(sent).toHaveLength(2); // the others wait for a batch to return
    release(0);
    await settled();
    expect(sent[2]).toEqual([3, 4, 5]); // 3 rows at most
    release(1);
    await settled();
    expect(sent[3]).toEqual([6, 60]); // 6 + 60 + 50 bytes would pass 100
    release(2);
    release(3);
    await settled();
    expect(sent[4]).toEqual([50]);
    release(4);
    await Promise.all(added);
    expect(sent).toHaveLength(5);
  });

  test("a batch that keeps failing is sent one result at a time: only the bad one is given up", async () => {
    const sent: string[][] = [];
    let failing = true;
    const batcher = new RecordBatcher<string>(
      async (entries) => {
        sent.push(entries);
        if (failing) throw new Error("conflict"); // the first result's batch fails until the rest wait
        if (entries.includes("bad")) throw new Error("conflict");
      },
      () => 1,
      noPause,
      { maxRows: 10, maxBytes: 100, maxOut: 1 },
    );
    const first = batcher.add("first");
    const rest = ["a", "bad", "c"].map((entry) => batcher.add(entry));
    failing = false;
    const outcomes = await Promise.allSettled([first, ...rest]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(sent.filter((entries) => entries.length === 3)).toHaveLength(RECORD_ATTEMPTS);
    expect(sent.filter((entries) => entries.length === 1 && entries[0] === "bad")).toHaveLength(RECORD_ATTEMPTS);
  });
});

describe("CallGate", () => {
  test("a call sent first waits ahead of the calls that were waiting before it", async () => {
    const gate = new CallGate(1);
    const order: string[] = [];
    let open: () => void = () => {};
    const holder = gate.run(() => new Promise<void>((resolve) => (open = resolve)));
    const calls = [
      gate.run(async () => void order.push("claim")),
      gate.run(async () => void order.push("report")),
      gate.run(async () => void order.push("recording"), true),
    ];
    open();
    await Promise.all([holder, ...calls]);
    expect(order).toEqual(["recording", "claim", "report"]);
  });
});
