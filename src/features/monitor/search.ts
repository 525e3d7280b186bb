import { z } from "zod";

// The router parses numeric-looking search values as numbers; ids are kept as strings.
const idLike = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .pipe(z.string().min(1))
  .optional()
  .catch(undefined);

/**
 * Search of /dashboard/monitor: `testId` picks the test to watch; `session_id` is the Stripe
 * Checkout session a return from payment carries. Bad values are dropped, never rejected.
 */
export const monitorSearchSchema = z.object({
  testId: idLike,
  session_id: idLike,
});

export type MonitorSearch = z.infer<typeof monitorSearchSchema>;
