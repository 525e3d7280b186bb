import type { Value } from "convex/values";

/**
 * Convex's limits on values, as a deployment applies them (README "Limits on values"):
 * - a document at most 1 MiB (crates/common/src/document.rs MAX_USER_SIZE, `check_user_size`),
 *   16 levels of nesting (MAX_DOCUMENT_NESTING), 1,024 fields an object
 *   (crates/value/src/object.rs MAX_OBJECT_FIELDS);
 * - an array at most 8,192 elements, anywhere: documents, arguments, return values
 *   (crates/value/src/array.rs MAX_ARRAY_LEN);
 * - a function's arguments and its return value at most 16 MiB each (knobs.rs
 *   FUNCTION_MAX_ARGS_SIZE, FUNCTION_MAX_RESULT_SIZE; checked in crates/udf/src/helpers.rs and
 *   crates/isolate/src/helpers.rs);
 * - mutations write at most 4 MiB (S16) or 8 MiB (S256) a second (plan.ts WRITE_THROUGHPUT_BYTES).
 * Sizes are Convex's (crates/value/src/size.rs and the `Size` impls): null and booleans 1 byte,
 * numbers and int64s 9, strings and bytes their length plus 2, arrays their elements plus 2,
 * objects each field's name plus 1 plus its value, plus 2. Messages are the deployment's.
 */
export const MAX_DOCUMENT_BYTES = 1 << 20;
export const MAX_DOCUMENT_NESTING = 16;
export const MAX_OBJECT_FIELDS = 1024;
export const MAX_ARRAY_LENGTH = 8192;
export const MAX_FUNCTION_ARGS_BYTES = 1 << 24;
export const MAX_FUNCTION_RESULT_BYTES = 1 << 24;
/** knobs.rs WRITE_THROUGHPUT_WINDOW. */
export const WRITE_THROUGHPUT_WINDOW_MS = 1000;

const encoder = new TextEncoder();

function stringBytes(value: string): number {
  // ASCII is the common case: one byte a character.
  // eslint-disable-next-line no-control-regex -- the ASCII range
  return /^[\x00-\x7f]*$/.test(value) ? value.length : encoder.encode(value).length;
}

type Walk = { size: number; nesting: number };

/**
 * A value's size and nesting as Convex counts them; throws the deployment's error for an array
 * over 8,192 elements (and, with `document`, an object over 1,024 fields).
 */
function walk(value: Value | undefined, document: boolean): Walk {
  if (value === null || value === undefined) return { size: 1, nesting: 0 };
  switch (typeof value) {
    case "boolean":
      return { size: 1, nesting: 0 };
    case "number":
    case "bigint":
      return { size: 9, nesting: 0 };
    case "string":
      return { size: stringBytes(value) + 2, nesting: 0 };
  }
  if (value instanceof ArrayBuffer) return { size: value.byteLength + 2, nesting: 0 };
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY_LENGTH) {
      throw new Error(`Array length is too long (${value.length} > maximum length ${MAX_ARRAY_LENGTH})`);
    }
    let size = 2;
    let nesting = 0;
    for (const item of value) {
      const inner = walk(item, document);
      size += inner.size;
      if (inner.nesting > nesting) nesting = inner.nesting;
    }
    return { size, nesting: nesting + 1 };
  }
  let size = 2;
  let nesting = 0;
  let fields = 0;
  for (const key in value) {
    const item = (value as Record<string, Value | undefined>)[key];
    if (item === undefined) continue;
    fields++;
    const inner = walk(item, document);
    size += stringBytes(key) + 1 + inner.size;
    if (inner.nesting > nesting) nesting = inner.nesting;
  }
  if (document && fields > MAX_OBJECT_FIELDS) {
    throw new Error(`Object has too many fields (${fields} > maximum number ${MAX_OBJECT_FIELDS})`);
  }
  return { size, nesting: nesting + 1 };
}

/** A value's size in bytes as Convex counts it (throws for an array over 8,192 elements). */
export function valueSize(value: Value | undefined): number {
  return walk(value, false).size;
}

/** Sizes as the deployment prints them (the `humansize` crate, binary units, 2 decimals). */
export function formatBinary(bytes: number): string {
  const units = ["KiB", "MiB", "GiB"];
  if (bytes < 1024) return `${bytes} B`;
  let scaled = bytes;
  let unit = "B";
  for (const next of units) {
    if (scaled < 1024) break;
    scaled /= 1024;
    unit = next;
  }
  return `${Number.isInteger(scaled) ? String(scaled) : scaled.toFixed(2)} ${unit}`;
}

/** Throws the deployment's error for a document a transaction may not write. */
export function checkDocument(document: Record<string, Value | undefined>): number {
  const { size, nesting } = walk(document as Value, true);
  // The document itself is one level; its fields' values are what nests.
  if (nesting - 1 > MAX_DOCUMENT_NESTING) {
    throw new Error(
      `Document is too nested (nested ${nesting - 1} levels deep > maximum nesting ${MAX_DOCUMENT_NESTING})`,
    );
  }
  if (size > MAX_DOCUMENT_BYTES) {
    throw new Error(`Value is too large (${formatBinary(size)} > maximum size ${formatBinary(MAX_DOCUMENT_BYTES)})`);
  }
  return size;
}

/** The deployment's error for arguments over 16 MiB (or with an array over 8,192 elements), or null. */
export function argumentsError(path: string, args: Record<string, Value>): string | null {
  let size: number;
  try {
    // Arguments travel as a one-element array.
    size = valueSize([args]);
  } catch (error) {
    return (error as Error).message;
  }
  if (size <= MAX_FUNCTION_ARGS_BYTES) return null;
  return `Arguments for ${path} are too large (actual: ${formatBinary(size)}, limit: ${formatBinary(MAX_FUNCTION_ARGS_BYTES)})`;
}

/** The deployment's error for a return value over 16 MiB (or with an array over 8,192 elements), or null. */
export function resultError(path: string, result: Value | undefined): string | null {
  let size: number;
  try {
    size = valueSize(result);
  } catch (error) {
    return `Function ${path} return value invalid: ${(error as Error).message}`;
  }
  if (size <= MAX_FUNCTION_RESULT_BYTES) return null;
  return `Function ${path} return value is too large (actual: ${formatBinary(size)}, limit: ${formatBinary(MAX_FUNCTION_RESULT_BYTES)})`;
}

/** The deployment's error for a mutation started while the last second's writes are over the limit. */
export class TooManyWritesError extends Error {
  constructor(limitBytes: number) {
    super(
      `Too many writes per second. Your deployment is limited to ${formatBinary(limitBytes)} bytes written per 1 second. Reduce your write rate or upgrade to a larger deployment.`,
    );
  }
}

export function isTooManyWrites(message: string): boolean {
  return message.startsWith("Too many writes per second.");
}

/**
 * The bytes committed in the last second (crates/database/src/write_throughput_limiter.rs): a
 * mutation is refused before it runs while they exceed the limit, so one large commit can go
 * through and the next ones wait out the second.
 */
export class WriteThroughput {
  private readonly commits: { at: number; bytes: number }[] = [];
  private total = 0;

  constructor(
    readonly limitBytes: number,
    /** Milliseconds; a test may stop it to make "within the second" certain. */
    public now: () => number = () => performance.now(),
  ) {}

  record(bytes: number): void {
    if (bytes <= 0) return;
    this.forgetOld();
    this.commits.push({ at: this.now(), bytes });
    this.total += bytes;
  }

  /** Bytes written in the last second. */
  get recent(): number {
    this.forgetOld();
    return this.total;
  }

  /** Throws TooManyWritesError while the last second's writes exceed the limit. */
  check(): void {
    if (this.recent > this.limitBytes) throw new TooManyWritesError(this.limitBytes);
  }

  private forgetOld(): void {
    const since = this.now() - WRITE_THROUGHPUT_WINDOW_MS;
    while (this.commits.length > 0 && this.commits[0]!.at < since) this.total -= this.commits.shift()!.bytes;
  }
}
