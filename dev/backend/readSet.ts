import { AsyncLocalStorage } from "node:async_hooks";
import type { CommittedWrite } from "./database.js";
import { compareKeys, inBounds, keyOf } from "./indexKeys.js";
import type { Bounds, Key } from "./indexKeys.js";
import type { StoredDocument } from "./store.js";

// What a transaction or subscribed query read (the ranges and documents; indexes.ts records them):
// a commit re-runs only the queries whose reads it changed and makes a mutation whose reads it
// changed conflict (transactions.ts).

/** One range a query read: the index, its bounds, and how far along it the query got. */
export type RangeRead = {
  table: string;
  fields: string[];
  bounds: Bounds | null; // null: the whole table (a scan or a search)
  order: "asc" | "desc";
  /** The key of the last entry reached; undefined when none was. */
  last: Key | undefined;
  exhausted: boolean;
};

export class ReadSet {
  readonly ranges: RangeRead[] = [];
  readonly ids = new Set<string>();

  /** Whether a committed change of these documents can change what the query read. */
  affectedBy(writes: readonly CommittedWrite[]): boolean {
    return this.conflictWith(writes) !== null;
  }

  /** The first of these committed changes that can change what was read, if any. */
  conflictWith(writes: readonly CommittedWrite[]): CommittedWrite | null {
    for (const write of writes) {
      if (this.ids.has(write.id)) return write;
      for (const range of this.ranges) {
        if (range.table !== write.table) continue;
        if (rangeCovers(range, write.previous) || rangeCovers(range, write.value)) return write;
      }
    }
    return null;
  }

  /** Adds what another read set read. */
  merge(other: ReadSet): void {
    this.ranges.push(...other.ranges);
    for (const id of other.ids) this.ids.add(id);
  }
}

/** The read set of the subscribed query being evaluated (engine.ts). */
export const readSetStorage = new AsyncLocalStorage<ReadSet>();

/**
 * Where reads are recorded: the running transaction's own read set (transactions.ts sets
 * `current`), else the subscribed query's; `outer` is the subscribed query's.
 */
export const transactionReadSet = {
  current: (): ReadSet | undefined => undefined,
  outer: (): ReadSet | undefined => readSetStorage.getStore(),
};

/**
 * The running transaction's snapshot (the commit sequence number it reads at; transactions.ts sets
 * these), and the oldest snapshot any running transaction reads at: the indexes keep what those
 * snapshots need of the documents and index entries that commits replaced.
 */
export const transactionSnapshots = {
  current: (): number | undefined => undefined,
  oldest: (): number | undefined => undefined,
  /** Every running transaction's snapshot. */
  all: (): number[] => [],
};

/**
 * Of versions sorted by the sequence number they end at, the ones a snapshot reads: for each
 * snapshot the first that ends after it. The versions between two snapshots are no one's: with
 * one long transaction open, keeping every version since its snapshot kept a copy of an index
 * per commit (ten tests at once grew the heap by about 1 GB a minute).
 */
export function versionsRead<V>(
  versions: readonly V[],
  endOf: (version: V) => number,
  snapshots: readonly number[],
): V[] {
  const kept: V[] = [];
  let next = 0;
  for (const snapshot of [...snapshots].sort((a, b) => a - b)) {
    while (next < versions.length && endOf(versions[next]!) <= snapshot) next++;
    if (next < versions.length && kept.at(-1) !== versions[next]) kept.push(versions[next]!);
  }
  return kept;
}

export function currentReadSet(): ReadSet | undefined {
  return transactionReadSet.current() ?? readSetStorage.getStore();
}

function rangeCovers(range: RangeRead, doc: StoredDocument | null): boolean {
  if (doc === null) return false;
  const key = keyOf(doc, range.fields);
  if (!inBounds(key, range.bounds)) return false;
  if (range.exhausted) return true;
  if (range.last === undefined) return false;
  const order = compareKeys(key, range.last);
  return range.order === "asc" ? order <= 0 : order >= 0;
}
