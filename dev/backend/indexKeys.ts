import { compareValues, jsonToConvex } from "convex/values";
import type { JSONValue, Value } from "convex/values";
import type { StoredDocument } from "./store.js";

// Index keys and ranges as Convex orders them: a document's key on an index's fields, the bounds
// of a range read (`.withIndex`), and where a key falls in them (indexes.ts, readSet.ts).

export type Key = (Value | undefined)[];
export type Entry = { key: Key; doc: StoredDocument };
export type RangeExpression = { type: "Eq" | "Gt" | "Gte" | "Lt" | "Lte"; fieldPath: string; value: JSONValue };
export type QuerySource =
  | { type: "FullTableScan"; tableName: string; order?: "asc" | "desc" | null }
  | { type: "IndexRange"; indexName: string; range: RangeExpression[]; order?: "asc" | "desc" | null }
  | { type: "Search"; indexName: string; filters: unknown[] };
export type Query = { source: QuerySource; operators: ({ filter: unknown } | { limit: number })[] };

/** The bounds of an index range, evaluated: equal on a prefix, then optional lower/upper bounds. */
export type Bounds = {
  prefix: (Value | undefined)[];
  lower: { value: Value | undefined; inclusive: boolean } | null;
  upper: { value: Value | undefined; inclusive: boolean } | null;
};

export function isSimpleObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || prototype === Object.prototype || prototype.constructor?.name === "Object";
}

export function fieldValue(doc: StoredDocument, fieldPath: string): Value | undefined {
  // A top-level field (most index fields), read without splitting its path: keys are built at every
  // index lookup and sort, and the split was a twentieth of a bench run's CPU.
  if (!fieldPath.includes(".")) return (doc as Record<string, Value | undefined>)[fieldPath];
  let result: unknown = doc;
  for (const part of fieldPath.split(".")) {
    result = result !== undefined && result !== null && isSimpleObject(result) ? result[part] : undefined;
  }
  return result as Value | undefined;
}

export function keyOf(doc: StoredDocument, fields: string[]): Key {
  return fields.map((field) => fieldValue(doc, field));
}

export function compareKeys(a: Key, b: Key): number {
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
export function compareStrings(a: string, b: string): number {
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

export function queryValue(value: JSONValue): Value | undefined {
  if (typeof value === "object" && value !== null && "$undefined" in value) return undefined;
  return jsonToConvex(value);
}

export function boundsOf(range: RangeExpression[]): Bounds {
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
export function comparePrefix(key: Key, bounds: Bounds): number {
  for (let i = 0; i < bounds.prefix.length; i++) {
    const order = compareValues(key[i], bounds.prefix[i]);
    if (order !== 0) return order;
  }
  return 0;
}

/** True from the first key at or after the range's start on (monotone along the index). */
export function reachedStart(key: Key, bounds: Bounds): boolean {
  const prefix = comparePrefix(key, bounds);
  if (prefix !== 0) return prefix > 0;
  if (bounds.lower === null) return true;
  const order = compareValues(key[bounds.prefix.length], bounds.lower.value);
  return bounds.lower.inclusive ? order >= 0 : order > 0;
}

/** True from the first key past the range's end on (monotone along the index). */
export function pastEnd(key: Key, bounds: Bounds): boolean {
  const prefix = comparePrefix(key, bounds);
  if (prefix !== 0) return prefix > 0;
  if (bounds.upper === null) return false;
  const order = compareValues(key[bounds.prefix.length], bounds.upper.value);
  return bounds.upper.inclusive ? order > 0 : order >= 0;
}

export function inBounds(key: Key, bounds: Bounds | null): boolean {
  return bounds === null || (reachedStart(key, bounds) && !pastEnd(key, bounds));
}

/** The first index in `entries` (from `from` on) for which `predicate` (monotone: false…false true…true) holds. */
export function search(entries: Entry[], predicate: (key: Key) => boolean, from = 0): number {
  let low = from;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (predicate(entries[middle]!.key)) high = middle;
    else low = middle + 1;
  }
  return low;
}
