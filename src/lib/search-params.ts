// Route search params through zod (docs/ARCHITECTURE.md §2), with zod's mini build: each feature's
// `search.ts` declares its route's search as one `z.object` of the fields below, and its
// validateSearch is `searchParser(schema)`. A value that does not fit is dropped, never rejected,
// so a bad link still shows its page. Route files' validateSearch runs in the entry chunk every
// page loads: zod/mini there measured +15.1 KB gzipped on /dashboard (199.2 → 214.3 KB,
// bench/bundle-size.ts, whose dashboard target was raised to 215 KB for it).
import * as z from "zod/mini";

/** A search value that is `schema`'s output when it fits, else absent. */
export function dropInvalid<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

/**
 * An id-like search value as a trimmed, non-empty string of at most `maxLength` characters, else
 * absent. The router parses numeric-looking values as numbers; ids are kept as strings.
 */
export function searchId(maxLength?: number) {
  const text = z.union([z.string().check(z.trim()), z.pipe(z.number(), z.transform(String))]);
  const length = maxLength === undefined ? [z.minLength(1)] : [z.minLength(1), z.maxLength(maxLength)];
  return dropInvalid(z.pipe(text, z.string().check(...length)));
}

/** One of `options`, else absent. */
export function searchChoice<const T extends readonly [string, ...string[]]>(options: T) {
  return dropInvalid(z.enum(options));
}

/**
 * A route's validateSearch from its schema: the parsed search carries only the keys that are
 * present and valid (unknown keys and values that do not fit are left out).
 */
export function searchParser<T extends z.ZodMiniObject>(schema: T): (search: Record<string, unknown>) => z.infer<T> {
  return (search) => definedEntries(schema.parse(search));
}

/** The object without its undefined entries, so a parsed search carries only what is present. */
function definedEntries<T extends Record<string, unknown>>(search: T): T {
  return Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined)) as T;
}
