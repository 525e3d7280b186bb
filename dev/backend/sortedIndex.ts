import type { CommittedWrite } from "./database.js";
import { compareKeys, keyOf, pastEnd, reachedStart, search } from "./indexKeys.js";
import type { Bounds, Entry, Key } from "./indexKeys.js";
import type { StoredDocument } from "./store.js";

// One index of one table: the committed documents sorted by key, with the earlier arrays that
// running transactions' snapshots still read (indexes.ts).

/** Commits with more writes to a table than this rebuild its indexes in one merge. */
export const BULK_WRITES = 32;

export class SortedIndex {
  entries: Entry[] = [];
  /** Earlier arrays still needed by a snapshot: each valid for snapshots before `until`. */
  versions: { until: number; entries: Entry[] }[] = [];
  constructor(readonly fields: string[]) {}

  /** The entries as of a snapshot (the current ones outside a transaction). */
  at(snapshot: number | undefined): Entry[] {
    if (snapshot !== undefined)
      for (const version of this.versions) if (version.until > snapshot) return version.entries;
    return this.entries;
  }

  private position(key: Key): number {
    return search(this.entries, (other) => compareKeys(other, key) >= 0);
  }

  insert(doc: StoredDocument): void {
    // A new array: a query streaming the old one (a concurrent transaction) keeps its snapshot.
    const key = keyOf(doc, this.fields);
    const entries = this.entries.slice();
    entries.splice(this.position(key), 0, { key, doc });
    this.entries = entries;
  }

  remove(doc: StoredDocument): void {
    const at = this.position(keyOf(doc, this.fields));
    // Keys end with _id, so the position is the document's own entry.
    if (this.entries[at]?.doc._id === doc._id) this.entries = this.entries.toSpliced(at, 1);
  }

  /**
   * Applies many writes at once: finds where each goes by binary search and copies the
   * entries between, instead of moving the array's tail once per write.
   */
  bulk(writes: readonly CommittedWrite[]): void {
    const entries = this.entries;
    const removed: number[] = [];
    const added: Entry[] = [];
    for (const write of writes) {
      if (write.previous !== null) {
        const at = this.position(keyOf(write.previous, this.fields));
        if (entries[at]?.doc._id === write.previous._id) removed.push(at);
      }
      if (write.value !== null) added.push({ key: keyOf(write.value, this.fields), doc: write.value });
    }
    let kept = entries;
    if (removed.length > 0) {
      removed.sort((a, b) => a - b);
      kept = [];
      let from = 0;
      for (const at of removed) {
        for (let i = from; i < at; i++) kept.push(entries[i]!);
        from = Math.max(from, at + 1);
      }
      for (let i = from; i < entries.length; i++) kept.push(entries[i]!);
    }
    added.sort((a, b) => compareKeys(a.key, b.key));
    const merged: Entry[] = [];
    let from = 0;
    for (const entry of added) {
      const at = search(kept, (key) => compareKeys(key, entry.key) >= 0, from);
      for (let i = from; i < at; i++) merged.push(kept[i]!);
      merged.push(entry);
      from = at;
    }
    for (let i = from; i < kept.length; i++) merged.push(kept[i]!);
    this.entries = merged;
  }

  /** [start, end) of the entries within the bounds. */
  static span(entries: Entry[], bounds: Bounds | null): [number, number] {
    if (bounds === null) return [0, entries.length];
    return [search(entries, (key) => reachedStart(key, bounds)), search(entries, (key) => pastEnd(key, bounds))];
  }
}
