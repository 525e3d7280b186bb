import { z } from "zod";

import { isSameOriginPath } from "@/lib/navigation";

/**
 * Search of /login and /signup: `redirect` is the originally requested location. Anything that
 * is not a path on this site is dropped rather than rejected, so a bad link still shows the form.
 */
export const authSearchSchema = z.object({
  redirect: z.string().refine(isSameOriginPath).optional().catch(undefined),
});

export type AuthSearch = z.infer<typeof authSearchSchema>;
