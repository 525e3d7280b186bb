// The return from payment, owned here: the one client module that knows the query parameter the
// payment provider appends when it sends the payer back (Stripe's `session_id`), how an address
// carrying it is rewritten to the monitor (spec part 2 §2), and how the monitor's address keeps
// it. The server side of the same contract is convex/payments.ts checkoutOf (its success URL);
// the monitor verifies the session once (features/monitor/use-payment-return.ts).
import { MONITOR_PATH, notFoundDestination, type LocationLike } from "./navigation";

/** The query parameter the payment provider appends when it returns from a checkout. */
export const PAYMENT_SESSION_PARAM = "session_id";

/** The checkout session a parsed search carries; the router may parse numeric-looking values as numbers. */
export function paymentSessionIdOf(search: Record<string, unknown>): string | null {
  const value = search[PAYMENT_SESSION_PARAM];
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value;
  return null;
}

/**
 * A return from payment: any address carrying ?session_id= for a signed-in user is rewritten
 * to the monitor, keeping the session id. Null when the address stays as it is.
 */
export function paymentReturnRewrite(location: LocationLike, signedIn: boolean): string | null {
  if (!signedIn) return null;
  const sessionId = paymentSessionIdOf(location.search);
  if (sessionId === null || location.pathname === MONITOR_PATH) return null;
  return `${MONITOR_PATH}?${PAYMENT_SESSION_PARAM}=${encodeURIComponent(sessionId)}`;
}

/** Where an address with no route leads: a payment return first, then the not-found rule. */
export function unknownPathDestination(location: LocationLike, signedIn: boolean): string {
  return paymentReturnRewrite(location, signedIn) ?? notFoundDestination(signedIn);
}

/** The search entry of a pending return from payment, for the monitor's own address. */
export function paymentSessionSearch(sessionId: string | undefined): { [PAYMENT_SESSION_PARAM]?: string } {
  return sessionId === undefined ? {} : { [PAYMENT_SESSION_PARAM]: sessionId };
}
