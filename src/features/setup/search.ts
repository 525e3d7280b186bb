import { z } from "zod";

// The router parses numeric-looking search values as numbers; ids are kept as strings.
const idLike = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .pipe(z.string().min(1).max(200))
  .optional()
  .catch(undefined);

/**
 * Search of /dashboard/setup: `template` starts from a built-in or saved template, `rerun` from a
 * past test's configuration, and `payment=cancelled` is where the checkout's Cancel returns.
 * Bad values are dropped rather than rejected, so a broken link still shows the page.
 */
export const setupSearchSchema = z.object({
  template: idLike,
  rerun: idLike,
  payment: idLike,
});

export type SetupSearch = z.infer<typeof setupSearchSchema>;
