import { definedEntries, optionalChoice } from "@/lib/search-params";

export const ADMIN_TABS = ["overview", "users", "jobs", "health"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

export interface AdminSearch {
  tab?: AdminTab;
}

/** Search of /admin: `tab` picks the open tab; an unknown value falls back to the overview. */
export function parseAdminSearch(search: Record<string, unknown>): AdminSearch {
  return definedEntries({ tab: optionalChoice(search.tab, ADMIN_TABS) });
}
