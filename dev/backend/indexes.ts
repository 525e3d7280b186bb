import { AsyncLocalStorage } from "node:async_hooks";
import { compareValues, jsonToConvex } from "convex/values";
import type { JSONValue, Value } from "convex/values";
import type { CommittedWrite, DatabaseFake } from "./database.js";
import { tableOfId } from "./database.js";
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

type Key = (Value | undefined)[];
type Entry = { key: Key; doc: StoredDocument };
type RangeExpression = { type: "Eq" | "Gt" | "Gte" | "Lt" | "Lte"; fieldPath: string; value: JSONValue };
type QuerySource =
  | { type: "FullTableScan"; tableName: string; order?: "asc" | "desc" | null }
  | { type: "IndexRange"; indexName: string; range: RangeExpression[]; order?: "asc" | "desc" | null }
  | { type: "Search"; indexName: string; filters: unknown[] };
type Query = { source: QuerySource; operators: ({ filter: unknown } | { limit: number })[] };

/** The bounds of an index range, evaluated: equal on a prefix, then optional lower/upper bounds. */
type Bounds = {
  prefix: (Value | undefined)[];
  lower: { value: Value | undefined; inclusive: boolean } | null;
  upper: { value: Value | undefined; inclusive: boolean } | null;
};

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

function currentReadSet(): ReadSet | undefined {
  return transactionReadSet.current() ?? readSetStorage.getStore();
}

function isSimpleObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || prototype === Object.prototype || prototype.constructor?.name === "Object";
}

function fieldValue(doc: StoredDocument, fieldPath: string): Value | undefined {
  let result: unknown = doc;
  for (const part of fieldPath.split(".")) {
    result = result !== undefined && result !== null && isSimpleObject(result) ? result[part] : undefined;
  }
  return result as Value | undefined;
}

function keyOf(doc: StoredDocument, fields: string[]): Key {
  return fields.map((field) => fieldValue(doc, field));
}

function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y && typeof x === "string") continue;
    const order = typeof x === "string" && typeof y === "string" ? compareStrings(x, y) : compareValues(x, y);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * Convex's order of strings (by UTF-8 bytes, as compareValues does) without its allocations:
 * below the surrogates (U+D800) UTF-16 code units sort as UTF-8 does; beyond, compareValues.
 */
function compareStrings(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    return compareValues(a, b);
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function queryValue(value: JSONValue): Value | undefined {
  if (typeof value === "object" && value !== null && "$undefined" in value) return undefined;
  return jsonToConvex(value);
}

function boundsOf(range: RangeExpression[]): Bounds {
  const bounds: Bounds = { prefix: [], lower: null, upper: null };
  for (const expression of range) {
    const value = queryValue(expression.value);
    if (expression.type === "Eq") bounds.prefix.push(value);
    else if (expression.type === "Gt" || expression.type === "Gte")
      bounds.lower = { value, inclusive: expression.type === "Gte" };
    else bounds.upper = { value, inclusive: expression.type === "Lte" };
  }
  return bounds;
}

/** Compares the key's prefix with the bounds' prefix. */
function comparePrefix(key: Key, bounds: Bounds): number {
  for (let i = 0; i < bounds.prefix.length; i++) {
    const order = compareValues(key[i], bounds.prefix[i]);
    if (order !== 0) return order;
  }
  return 0;
}

/** True from the first key at or after the range's start on (monotone along the index). */
function reachedStart(key: Key, bounds: Bounds): boolean {
  const prefix = comparePrefix(key, bounds);
  if (prefix !== 0) return prefix > 0;
  if (bounds.lower === null) return true;
  const order = compareValues(key[bounds.prefix.length], bounds.lower.value);
  return bounds.lower.inclusive ? order >= 0 : order > 0;
}

/** True from the first key past the range's end on (monotone along the index). */
function pastEnd(key: Key, bounds: Bounds): boolean {
  const prefix = comparePrefix(key, bounds);
  if (prefix !== 0) return prefix > 0;
  if (bounds.upper === null) return false;
  const order = compareValues(key[bounds.prefix.length], bounds.upper.value);
  return bounds.upper.inclusive ? order > 0 : order >= 0;
}

function inBounds(key: Key, bounds: Bounds | null): boolean {
  return bounds === null || (reachedStart(key, bounds) && !pastEnd(key, bounds));
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

/** The first index in `entries` (from `from` on) for which `predicate` (monotone: false…false true…true) holds. */
function search(entries: Entry[], predicate: (key: Key) => boolean, from = 0): number {
  let low = from;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (predicate(entries[middle]!.key)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Commits with more writes to a table than this rebuild its indexes in one merge. */
const BULK_WRITES = 32;

class SortedIndex {
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

type SchemaTables = Map<string, { indexes: { indexDescriptor: string; fields: string[] }[] }>;

/** Attaches the indexes to convex-test's database; `apply` keeps them current after each commit. */
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

  /** The current transaction's own writes to `table`, innermost level last. */
  private pendingOf(table: string): Map<string, StoredDocument | null> {
    const pending = new Map<string, StoredDocument | null>();
    for (const level of this.fake._writes) {
      for (const [id, doc] of Object.entries(level)) if (tableOfId(id) === table) pending.set(id, doc);
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

// The filter expressions of `.filter()`, evaluated as convex-test does.
type FilterExpression = Record<string, unknown>;

function filtersOf(query: Query): unknown[] {
  return query.operators
    .filter((operator): operator is { filter: unknown } => "filter" in operator)
    .map((operator) => operator.filter);
}

function compileFilters(filters: unknown[]): (doc: StoredDocument) => boolean {
  return (doc) => filters.every((filter) => Boolean(evaluateFilter(doc, filter as FilterExpression)));
}

function evaluateFilter(doc: StoredDocument, filter: FilterExpression): unknown {
  const pair = (name: string) =>
    (filter[name] as FilterExpression[]).map((child) => evaluateFilter(doc, child)) as [Value, Value];
  if (filter.$eq !== undefined) return compareValues(...pair("$eq")) === 0;
  if (filter.$neq !== undefined) return compareValues(...pair("$neq")) !== 0;
  if (filter.$and !== undefined)
    return (filter.$and as FilterExpression[]).every((child) => evaluateFilter(doc, child));
  if (filter.$or !== undefined) return (filter.$or as FilterExpression[]).some((child) => evaluateFilter(doc, child));
  if (filter.$not !== undefined) return !evaluateFilter(doc, filter.$not as FilterExpression);
  // convex-test compares these with JavaScript's operators.
  if (filter.$gt !== undefined) return pair("$gt")[0]! > pair("$gt")[1]!;
  if (filter.$gte !== undefined) return pair("$gte")[0]! >= pair("$gte")[1]!;
  if (filter.$lt !== undefined) return pair("$lt")[0]! < pair("$lt")[1]!;
  if (filter.$lte !== undefined) return pair("$lte")[0]! <= pair("$lte")[1]!;
  if (filter.$add !== undefined) return (pair("$add")[0] as number) + (pair("$add")[1] as number);
  if (filter.$sub !== undefined) return (pair("$sub")[0] as number) - (pair("$sub")[1] as number);
  if (filter.$mul !== undefined) return (pair("$mul")[0] as number) * (pair("$mul")[1] as number);
  if (filter.$div !== undefined) return (pair("$div")[0] as number) / (pair("$div")[1] as number);
  if (filter.$mod !== undefined) return (pair("$mod")[0] as number) % (pair("$mod")[1] as number);
  if (filter.$field !== undefined) return fieldValue(doc, filter.$field as string);
  if (filter.$literal !== undefined) return queryValue(filter.$literal as JSONValue);
  // Every operator Convex's filter syntax has is handled above; anything else is a malformed expression.
  throw new Error(`Unknown filter expression: ${JSON.stringify(filter)}`);
}
