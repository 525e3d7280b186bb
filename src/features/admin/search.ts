import { z } from "zod";

export const ADMIN_TABS = ["overview", "users", "jobs", "health"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/** Search of /admin: `tab` picks the open tab; an unknown value falls back to the overview. */
export const adminSearchSchema = z.object({
  tab: z.enum(ADMIN_TABS).optional().catch(undefined),
});

export type AdminSearch = z.infer<typeof adminSearchSchema>;
