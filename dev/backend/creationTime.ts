/**
 * `_creationTime` as a deployment sets it: the transaction's begin time, not the moment of the
 * insert or of the commit. convex-backend's crates/database/src/database.rs
 * (`begin_with_repeatable_ts`): `begin_ts = max(latest_ts.succ(), now)`, its creation time that
 * timestamp in milliseconds; each insert takes the next one and steps it to the next larger
 * float (crates/common/src/document.rs `CreationTime::increment`, `next_up`). So a document
 * inserted late in a long transaction is dated at its start, and one committed after another can
 * sort before it by `_creationTime`. A retry is a new transaction with a new begin time.
 */

/** The last begin time handed out: begin times only grow (the runtime's timestamps do). */
let lastBegin = 0;

/** The begin time of a transaction starting now, after the commit at `lastCommitTs` (nanoseconds). */
export function beginCreationTime(lastCommitTs: bigint): number {
  const afterLatest = Number(lastCommitTs + 1n) / 1e6;
  let begin = Math.max(Date.now(), afterLatest);
  if (begin <= lastBegin) begin = nextUp(lastBegin);
  lastBegin = begin;
  return begin;
}

/** The next `_creationTime` of a transaction, stepping it to the next float. */
export function nextCreationTime(state: { creationTime: number }): number {
  const time = state.creationTime;
  state.creationTime = nextUp(time);
  return time;
}

const view = new DataView(new ArrayBuffer(8));

/** The smallest float larger than a positive `value` (Rust's `f64::next_up`). */
export function nextUp(value: number): number {
  view.setFloat64(0, value);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}
