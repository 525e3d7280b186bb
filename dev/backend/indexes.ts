import type { CommittedWrite, DatabaseFake } from "./database.js";
import { tableOfId } from "./database.js";
import { idsWrittenAt } from "./pendingWrites.js";
import { boundsOf, compareKeys, inBounds, keyOf } from "./indexKeys.js";
import type { Bounds, Query } from "./indexKeys.js";
import { compileFilters, filtersOf } from "./queryFilters.js";
import { currentReadSet, transactionSnapshots, versionsRead } from "./readSet.js";
import type { RangeRead } from "./readSet.js";
import { BULK_WRITES, SortedIndex } from "./sortedIndex.js";
import type { StoredDocument } from "./store.js";

/**
 * Real indexes for convex-test's database, and the read sets of subscribed queries.
 *
 * convex-test answers an index range by walking every document of every table and sorting
 * the matches. Here every index of the schema (plus by_creation_time and by_id) is a sorted
 * array of the committed documents, kept up to date at each commit, so a range costs a binary
 * search plus what is read; queries stream from it lazily (`.first()` reads one document).
 * A transaction's own pending writes are laid over the committed range.
 *
 * While a subscribed query runs, every range it reads (up to the last entry it actually
 * reached) and every document it gets is recorded in its ReadSet, so that a commit re-runs
 * only the queries whose reads it changed, as a Convex deployment does.
 */

type SchemaTables = Map<string, { indexes: { indexDescriptor: string; fields: string[] }[] }>;

/** Attaches the indexes to convex-test's database; `apply` keeps them current after each commit. */

/** Whether `id` (digits, then the table name: database.ts tableOfId) is a document of `table`. */
function isIdOfTable(id: string, table: string): boolean {
  const digitAt = id.length - table.length - 1;
  if (digitAt < 0 || !id.endsWith(table)) return false;
  const code = id.charCodeAt(digitAt);
  return code >= 48 && code <= 57;
}
export class Indexes {
  /** Commits applied so far: a transaction's snapshot is the number it started at. */
  seq = 0;
  private readonly tables = new Map<string, Map<string, SortedIndex>>();
  /** Per document changed while a snapshot was open: each change's number and the value before it. */
  private readonly documentVersions = new Map<string, { seq: number; previous: StoredDocument | null }[]>();
  private readonly versioned = new Set<SortedIndex>();
  private readonly schemaTables: SchemaTables | undefined;

  constructor(private readonly fake: DatabaseFake) {
    this.schemaTables = (fake as unknown as { _schema: { tables: SchemaTables } | null })._schema?.tables;
    for (const doc of Object.values(fake._documents)) this.add(doc);
    const internals = fake as unknown as {
      _resolveQuerySource(query: Query): unknown;
      _iterateDocs(table: string, callback: (doc: StoredDocument) => void): void;
      startQuery(query: Query): number;
      queryNext(queryId: number): { value: StoredDocument | null; done: boolean };
      _nextQueryId: number;
      _queryResults: Record<number, Iterator<StoredDocument>>;
    };
    const resolveQuerySource = internals._resolveQuerySource.bind(fake);
    // paginate() walks the range convex-test's way; it gets the range from the index.
    internals._resolveQuerySource = (query) => {
      const range = this.rangeOf(query);
      if (range === null) return resolveQuerySource(query);
      currentReadSet()?.ranges.push({
        table: range.table,
        fields: range.index.fields,
        bounds: range.bounds,
        order: range.order,
        last: undefined,
        exhausted: true,
      });
      const filters = filtersOf(query);
      const limit =
        query.operators.find((operator): operator is { limit: number } => "limit" in operator)?.limit ?? null;
      return {
        sortedDocs: this.rangeDocs(range),
        filterFn: filters.length === 0 ? () => true : compileFilters(filters),
        limit,
        fieldPathsToSortBy: query.source.type === "FullTableScan" ? ["_creationTime"] : range.index.fields,
        order: range.order,
      };
    };
    internals._iterateDocs = (table, callback) => {
      for (const doc of this.merged(table)) callback(doc);
    };
    internals.startQuery = (query) => {
      const id = internals._nextQueryId++;
      internals._queryResults[id] = this.stream(query);
      return id;
    };
    internals.queryNext = (queryId) => {
      const stream = internals._queryResults[queryId];
      if (stream === undefined) throw new Error("Bad queryId");
      const next = stream.next();
      if (next.done) {
        delete internals._queryResults[queryId];
        return { value: null, done: true };
      }
      return { value: next.value, done: false };
    };
    const get = fake.get.bind(fake);
    fake.get = (table, id) => {
      currentReadSet()?.ids.add(id);
      const document = get(table, id);
      const snapshot = transactionSnapshots.current();
      const versions = snapshot === undefined ? undefined : this.documentVersions.get(id);
      if (versions === undefined || fake._writes.some((level) => level[id] !== undefined)) return document;
      // Committed after the snapshot: the value before the first such change.
      for (const version of versions) if (version.seq > snapshot!) return version.previous;
      return document;
    };
  }

  /** Keeps the indexes equal to the committed documents (called after each top-level commit). */
  apply(writes: readonly CommittedWrite[]): void {
    this.seq++;
    const oldest = transactionSnapshots.oldest();
    if (oldest !== undefined) {
      for (const write of writes) {
        const versions = this.documentVersions.get(write.id);
        const version = { seq: this.seq, previous: write.previous };
        if (versions === undefined) this.documentVersions.set(write.id, [version]);
        else versions.push(version);
      }
    }
    const byTable = new Map<string, CommittedWrite[]>();
    for (const write of writes) {
      const tableWrites = byTable.get(write.table);
      if (tableWrites === undefined) byTable.set(write.table, [write]);
      else tableWrites.push(write);
    }
    for (const [table, tableWrites] of byTable) {
      if (oldest !== undefined) {
        // Arrays are replaced, never changed: the current one is the snapshots' version.
        for (const index of this.indexesOf(table).values()) {
          index.versions.push({ until: this.seq, entries: index.entries });
          this.versioned.add(index);
        }
      }
      if (tableWrites.length > BULK_WRITES) {
        for (const index of this.indexesOf(table).values()) index.bulk(tableWrites);
        continue;
      }
      for (const write of tableWrites) {
        if (write.previous !== null) this.drop(write.previous);
        if (write.value !== null) this.add(write.value);
      }
    }
  }

  /** Forgets versions no running transaction's snapshot needs (call when one ends). */
  prune(): void {
    const snapshots = transactionSnapshots.all();
    for (const index of this.versioned) {
      index.versions = versionsRead(index.versions, (version) => version.until, snapshots);
      if (index.versions.length === 0) this.versioned.delete(index);
    }
    for (const [id, versions] of this.documentVersions) {
      const kept = versionsRead(versions, (version) => version.seq, snapshots);
      if (kept.length === 0) this.documentVersions.delete(id);
      else if (kept.length !== versions.length) this.documentVersions.set(id, kept);
    }
  }

  private indexesOf(table: string): Map<string, SortedIndex> {
    let indexes = this.tables.get(table);
    if (indexes === undefined) {
      indexes = new Map([
        ["by_creation_time", new SortedIndex(["_creationTime", "_id"])],
        ["by_id", new SortedIndex(["_id"])],
      ]);
      for (const index of this.schemaTables?.get(table)?.indexes ?? []) {
        indexes.set(index.indexDescriptor, new SortedIndex([...index.fields, "_creationTime", "_id"]));
      }
      this.tables.set(table, indexes);
    }
    return indexes;
  }

  private add(doc: StoredDocument): void {
    for (const index of this.indexesOf(tableOfId(doc._id)).values()) index.insert(doc);
  }

  private drop(doc: StoredDocument): void {
    for (const index of this.indexesOf(tableOfId(doc._id)).values()) index.remove(doc);
  }

  /**
   * The current transaction's own writes to `table`, innermost level last. Asked at every query,
   * so it reads only the ids noted for the table (pendingWrites.ts), not every write.
   */
  private pendingOf(table: string): Map<string, StoredDocument | null> {
    const pending = new Map<string, StoredDocument | null>();
    for (const level of this.fake._writes) {
      // The backend's own tables are also written straight into a level (scheduler.ts): walked.
      if (table.startsWith("_")) {
        for (const id in level) if (isIdOfTable(id, table)) pending.set(id, level[id]!);
        continue;
      }
      for (const id of idsWrittenAt(level, table) ?? []) pending.set(id, level[id]!);
    }
    return pending;
  }

  /** Every document of the table as the transaction sees it (for searches). */
  private merged(table: string): StoredDocument[] {
    const pending = this.pendingOf(table);
    const docs = this.indexesOf(table)
      .get("by_creation_time")!
      .at(transactionSnapshots.current())
      .map((entry) => entry.doc)
      .filter((doc) => !pending.has(doc._id));
    for (const doc of pending.values()) if (doc !== null) docs.push(doc);
    return docs;
  }

  private rangeOf(
    query: Query,
  ): { table: string; index: SortedIndex; bounds: Bounds | null; order: "asc" | "desc" } | null {
    const source = query.source;
    if (source.type === "FullTableScan") {
      return {
        table: source.tableName,
        index: this.indexesOf(source.tableName).get("by_creation_time")!,
        bounds: null,
        order: source.order ?? "asc",
      };
    }
    if (source.type === "IndexRange") {
      const [table, indexName] = source.indexName.split(".") as [string, string];
      const index = this.indexesOf(table).get(indexName);
      if (index === undefined) {
        throw new Error(
          `Cannot use index "${indexName}" for table "${table}" because it is not declared in the schema.`,
        );
      }
      return { table, index, bounds: boundsOf(source.range), order: source.order ?? "asc" };
    }
    return null;
  }

  private rangeDocs(range: {
    table: string;
    index: SortedIndex;
    bounds: Bounds | null;
    order: "asc" | "desc";
  }): StoredDocument[] {
    const all = range.index.at(transactionSnapshots.current());
    const [start, end] = SortedIndex.span(all, range.bounds);
    const pending = this.pendingOf(range.table);
    let entries = all.slice(start, end);
    if (pending.size > 0) {
      entries = entries.filter((entry) => !pending.has(entry.doc._id));
      for (const doc of pending.values()) {
        if (doc === null) continue;
        const key = keyOf(doc, range.index.fields);
        if (inBounds(key, range.bounds)) entries.push({ key, doc });
      }
      entries.sort((a, b) => compareKeys(a.key, b.key));
    }
    const docs = entries.map((entry) => entry.doc);
    return range.order === "desc" ? docs.reverse() : docs;
  }

  /** A query's results, read lazily from its range, with its filters and limit. */
  private *stream(query: Query): Generator<StoredDocument> {
    const range = this.rangeOf(query);
    const readSet = currentReadSet();
    const filters = filtersOf(query);
    const limit =
      query.operators.find((operator): operator is { limit: number } => "limit" in operator)?.limit ?? Infinity;
    if (range === null) {
      // A search: convex-test's own evaluation over the table (recorded as a read of all of it).
      const source = query.source as { indexName: string };
      const table = source.indexName.split(".")[0]!;
      readSet?.ranges.push({ table, fields: ["_id"], bounds: null, order: "asc", last: undefined, exhausted: true });
      const evaluate = (this.fake as unknown as { _evaluateQuery(query: Query): StoredDocument[] })._evaluateQuery.bind(
        this.fake,
      );
      yield* evaluate(query);
      return;
    }
    const read: RangeRead = {
      table: range.table,
      fields: range.index.fields,
      bounds: range.bounds,
      order: range.order,
      last: undefined,
      exhausted: false,
    };
    readSet?.ranges.push(read);
    const matches = filters.length === 0 ? null : compileFilters(filters);
    let yielded = 0;
    if (yielded >= limit) return;
    const pending = this.pendingOf(range.table);
    if (pending.size > 0) {
      for (const doc of this.rangeDocs(range)) {
        read.last = keyOf(doc, range.index.fields);
        if (matches && !matches(doc)) continue;
        yield doc;
        if (++yielded >= limit) return;
      }
      read.exhausted = true;
      return;
    }
    // The entries as of the transaction's snapshot: commits replace arrays rather than change them.
    const entries = range.index.at(transactionSnapshots.current());
    const [start, end] = SortedIndex.span(entries, range.bounds);
    const ascending = range.order === "asc";
    for (let i = ascending ? start : end - 1; ascending ? i < end : i >= start; i += ascending ? 1 : -1) {
      const entry = entries[i]!;
      read.last = entry.key;
      if (matches && !matches(entry.doc)) continue;
      yield entry.doc;
      if (++yielded >= limit) return;
    }
    read.exhausted = true;
  }
}
