import { useAction } from "convex/react";
import { useEffect, useRef, useState } from "react";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";

export type PaymentReturn =
  | { state: "none" }
  | { state: "confirming" }
  | { state: "confirmed"; testId: Id<"tests"> | null }
  /** Stripe has not reported the session paid (yet): the webhook may still settle it. */
  | { state: "unconfirmed"; testId: Id<"tests"> | null };

interface Outcome {
  sessionId: string;
  verified: boolean;
  testId: Id<"tests"> | null;
}

/**
 * A return from Stripe Checkout (?session_id=): asks the server once per session whether it
 * was paid (the server asks Stripe and settles the payment). A failed call counts as not
 * verified (spec part 1 §8).
 */
export function usePaymentReturn(sessionId: string | undefined): PaymentReturn {
  const verify = useAction(api.payments.verify);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // Once per session id, also across React's development double-run of effects.
  const verifiedSession = useRef<string | null>(null);

  useEffect(() => {
    if (!sessionId || verifiedSession.current === sessionId) return;
    verifiedSession.current = sessionId;
    verify({ sessionId }).then(
      (result) => setOutcome({ sessionId, verified: result.verified, testId: result.testId }),
      (error: unknown) => {
        console.error("Payment verification failed", error);
        setOutcome({ sessionId, verified: false, testId: null });
      },
    );
  }, [sessionId, verify]);

  if (!sessionId) return { state: "none" };
  if (outcome?.sessionId !== sessionId) return { state: "confirming" };
  return outcome.verified
    ? { state: "confirmed", testId: outcome.testId }
    : { state: "unconfirmed", testId: outcome.testId };
}
