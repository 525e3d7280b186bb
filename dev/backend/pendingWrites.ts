// The ids a transaction wrote, by level of its writes and table (database.ts notes each write as
// convex-test adds it), so a query finds the transaction's own writes to its table without
// walking all of them: a batch recording 32 verdicts wrote over a thousand rows and ran a few
// hundred queries, and walking every write at each query was a tenth of a bench run's CPU.
const idsByLevel = new WeakMap<object, Map<string, Set<string>>>();

/** `id` of `table` was written at this level of a transaction's writes. */
export function noteWrite(level: object, table: string, id: string): void {
  let tables = idsByLevel.get(level);
  if (tables === undefined) {
    tables = new Map();
    idsByLevel.set(level, tables);
  }
  let ids = tables.get(table);
  if (ids === undefined) {
    ids = new Set();
    tables.set(table, ids);
  }
  ids.add(id);
}

/** The ids of `table` written at this level (none: undefined). */
export function idsWrittenAt(level: object, table: string): ReadonlySet<string> | undefined {
  return idsByLevel.get(level)?.get(table);
}
