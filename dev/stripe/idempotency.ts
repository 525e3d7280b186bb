// Idempotent requests as Stripe keeps them: a POST retried with the same Idempotency-Key gets the
// first answer back (kept with the rest of the state, so also after a restart), and the same key
// with other parameters is refused. A request that failed is not kept: its retry runs again.
import { StripeApiError } from "./errors";
import type { FormObject } from "./form";

export interface KeptReply {
  status: number;
  body: unknown;
  /** The request the key was first used with (method, path and parameters). */
  request: string;
}

/** What a key was first used for: the method, the path and the parameters in a fixed order. */
export function requestFingerprint(method: string, path: string, params: FormObject): string {
  const sorted = (value: unknown): unknown =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
        )
      : Array.isArray(value)
        ? value.map(sorted)
        : value;
  return `${method} ${path} ${JSON.stringify(sorted(params))}`;
}

/** The reply kept for this key, or undefined; throws when the key was used with other parameters. */
export function keptReply(kept: KeptReply | undefined, key: string, request: string): KeptReply | undefined {
  if (kept === undefined) return undefined;
  if (kept.request !== request) {
    throw new StripeApiError(
      400,
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      "idempotency_error",
    );
  }
  return kept;
}
