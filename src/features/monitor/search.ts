import { definedEntries, optionalId } from "@/lib/search-params";

export interface MonitorSearch {
  testId?: string;
  session_id?: string;
}

/**
 * Search of /dashboard/monitor: `testId` picks the test to watch; `session_id` is the Stripe
 * Checkout session a return from payment carries. Bad values are dropped, never rejected.
 */
export function parseMonitorSearch(search: Record<string, unknown>): MonitorSearch {
  return definedEntries({ testId: optionalId(search.testId), session_id: optionalId(search.session_id) });
}
