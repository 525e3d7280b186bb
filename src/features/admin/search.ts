import * as z from "zod/mini";

import { searchChoice, searchParser } from "@/lib/search-params";

export const ADMIN_TABS = ["overview", "users", "jobs", "health"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/** Search of /admin: `tab` picks the open tab; an unknown value falls back to the overview. */
const adminSearch = z.object({ tab: searchChoice(ADMIN_TABS) });

export type AdminSearch = z.infer<typeof adminSearch>;
export const parseAdminSearch = searchParser(adminSearch);
