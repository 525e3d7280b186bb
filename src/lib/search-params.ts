// Plain readers for route search params. Route files' validateSearch runs in the entry chunk
// every page loads, so these stay free of a schema library: zod/mini there measured +15.1 KB
// gzipped on /dashboard (198.3 → 213.4 KB against its 200 KB budget, bench/bundle-size.ts).

/**
 * An id-like search value as a trimmed, non-empty string, else undefined. The router parses
 * numeric-looking values as numbers; ids are kept as strings.
 */
export function optionalId(value: unknown, maxLength = Number.POSITIVE_INFINITY): string | undefined {
  let text: string;
  if (typeof value === "string") text = value.trim();
  else if (typeof value === "number" && Number.isFinite(value)) text = String(value);
  else return undefined;
  return text.length >= 1 && text.length <= maxLength ? text : undefined;
}

/** One of `options`, else undefined. */
export function optionalChoice<T extends string>(value: unknown, options: readonly T[]): T | undefined {
  return options.find((option) => option === value);
}

/** The object without its undefined entries, so a parsed search carries only what is present. */
export function definedEntries<T extends Record<string, unknown>>(search: T): T {
  return Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined)) as T;
}
