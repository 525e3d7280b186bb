// Where a recomputation keeps its compact rows: the juryStateChunks documents of a test
// (registered as juryStats.ts store; core/jury/state.ts encodes them).
import { v, type Infer } from "convex/values";
import type { Id } from "../../_generated/dataModel";
import type { MutationCtx } from "../../_generated/server";
import { decodeJuryState, encodeJuryState, JURY_STATE_CHUNK_CHARS, MAX_STATE_CHUNKS, mergeJuryStates } from "./state";

/** Where the kept rows end: the last answer's and judge score's creation times. */
export const cursorValidator = v.object({ responses: v.number(), evaluations: v.number() });

export const stateUpdateValidator = v.object({
  /** "replace": the full run's rows replace the kept ones; "append": new rows after them. */
  mode: v.union(v.literal("replace"), v.literal("append")),
  /** The rows, encoded (encodeJuryState), one string per chunk to write. */
  chunks: v.array(v.string()),
  cursor: cursorValidator,
  /** A full run after the test ended made these rows. */
  exact: v.boolean(),
});

/** Keeps the recomputation's rows: replaces them, or appends to the last chunk while it has room. */
export async function keepState(ctx: MutationCtx, testId: Id<"tests">, update: Infer<typeof stateUpdateValidator>) {
  // Replacing deletes every chunk; appending reads only the last.
  const kept = await ctx.db
    .query("juryStateChunks")
    .withIndex("by_test_index", (q) => q.eq("testId", testId))
    .order("desc")
    .take(update.mode === "replace" ? MAX_STATE_CHUNKS : 1);
  let next = 0;
  if (update.mode === "replace") {
    for (const chunk of kept) await ctx.db.delete("juryStateChunks", chunk._id);
  } else {
    const last = kept[0];
    next = last ? last.index + 1 : 0;
    const first = update.chunks[0];
    if (last && first !== undefined && last.data.length + first.length <= JURY_STATE_CHUNK_CHARS) {
      await ctx.db.patch("juryStateChunks", last._id, {
        data: encodeJuryState(mergeJuryStates(decodeJuryState(last.data), decodeJuryState(first))),
      });
      update = { ...update, chunks: update.chunks.slice(1) };
    }
  }
  for (const data of update.chunks) await ctx.db.insert("juryStateChunks", { testId, index: next++, data });
}
