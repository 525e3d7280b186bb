import { definedEntries, optionalId } from "@/lib/search-params";

const MAX_ID_LENGTH = 200;

export interface CompareSearch {
  a?: string;
  b?: string;
}

/**
 * Search of /compare: `a` and `b` are the two tests' ids. Bad values are dropped rather than
 * rejected, so a broken link still shows the page (which then says what is missing).
 */
export function parseCompareSearch(search: Record<string, unknown>): CompareSearch {
  return definedEntries({ a: optionalId(search.a, MAX_ID_LENGTH), b: optionalId(search.b, MAX_ID_LENGTH) });
}
