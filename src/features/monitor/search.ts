import * as z from "zod/mini";

import { PAYMENT_SESSION_PARAM } from "@/lib/payment-return";
import { searchId, searchParser } from "@/lib/search-params";

/**
 * Search of /dashboard/monitor: `testId` picks the test to watch; the payment session a return
 * from payment carries (lib/payment-return.ts) is kept. Bad values are dropped, never rejected.
 */
const monitorSearch = z.object({ testId: searchId(), [PAYMENT_SESSION_PARAM]: searchId() });

export type MonitorSearch = z.infer<typeof monitorSearch>;
export const parseMonitorSearch = searchParser(monitorSearch);
