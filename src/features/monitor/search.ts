import { PAYMENT_SESSION_PARAM } from "@/lib/payment-return";
import { definedEntries, optionalId } from "@/lib/search-params";

export interface MonitorSearch {
  testId?: string;
  [PAYMENT_SESSION_PARAM]?: string;
}

/**
 * Search of /dashboard/monitor: `testId` picks the test to watch; the payment session a return
 * from payment carries (lib/payment-return.ts) is kept. Bad values are dropped, never rejected.
 */
export function parseMonitorSearch(search: Record<string, unknown>): MonitorSearch {
  return definedEntries({
    testId: optionalId(search.testId),
    [PAYMENT_SESSION_PARAM]: optionalId(search[PAYMENT_SESSION_PARAM]),
  });
}
