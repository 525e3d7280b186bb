import { isSameOriginPath } from "@/lib/navigation";
import { definedEntries } from "@/lib/search-params";

export interface AuthSearch {
  redirect?: string;
}

/**
 * Search of /login and /signup: `redirect` is the originally requested location. Anything that
 * is not a path on this site is dropped rather than rejected, so a bad link still shows the form.
 */
export function parseAuthSearch(search: Record<string, unknown>): AuthSearch {
  return definedEntries({ redirect: isSameOriginPath(search.redirect) ? search.redirect : undefined });
}
