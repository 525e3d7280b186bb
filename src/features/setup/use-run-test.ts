// Run Test: create the test (the server validates and prices it), then either pay through the
// checkout or, on a free deployment or with the user's own key, go straight to the monitor.
import { useNavigate } from "@tanstack/react-router";
import { useAction, useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { notify } from "./notify";

import { useSpace } from "@/lib/space-context";
import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import type { TestConfiguration } from "../../../convex/validators";
import { redirectToCheckout } from "@/lib/checkout-redirect";

export type PaymentMode = "stripe" | "free" | "ownKey";

export const PAYMENT_FAILED = "Payment failed";

export interface PaymentDialogState {
  open: boolean;
  processing: boolean;
  error: string | null;
}

export interface RunTest {
  /** Undefined while loading. */
  paymentMode: PaymentMode | undefined;
  starting: boolean;
  payment: PaymentDialogState;
  /** The Run Test button. */
  run: () => void;
  /** The payment modal's Pay button. */
  pay: () => void;
  closePayment: () => void;
}

/** `rerunOf`: the test this run reruns, recorded on the new test (its results link back). */
export function useRunTest(configuration: TestConfiguration, priceCents: number, rerunOf?: string): RunTest {
  const mode = useQuery(api.tests.paymentMode)?.mode;
  const createTest = useMutation(api.tests.create);
  // In a team's space the test belongs to the team (the starter still pays); a rerun names its original.
  const { teamId } = useSpace();
  const createArgs = {
    ...(teamId === null ? {} : { teamId }),
    ...(rerunOf === undefined ? {} : { rerunOf: rerunOf as Id<"tests"> }),
  };
  const createCheckout = useAction(api.payments.createCheckout);
  const navigate = useNavigate();
  const [starting, setStarting] = useState(false);
  const [payment, setPayment] = useState<PaymentDialogState>({ open: false, processing: false, error: null });
  // A test created for a payment that then failed is paid for on retry, not created twice.
  const [unpaidTestId, setUnpaidTestId] = useState<Id<"tests"> | null>(null);

  function goToMonitor(testId: string) {
    void navigate({ to: "/dashboard/monitor", search: { testId } });
  }

  async function startFree() {
    setStarting(true);
    try {
      const created = await createTest({ configuration, ...createArgs });
      if (created.paymentRequired) {
        // The server decided this run is paid (the mode changed under us): pay for it.
        setUnpaidTestId(created.testId);
        setPayment({ open: true, processing: false, error: null });
        setStarting(false);
        return;
      }
      goToMonitor(created.testId);
    } catch (error) {
      notify.error(errorMessage(error));
      setStarting(false);
    }
  }

  async function pay() {
    setPayment({ open: true, processing: true, error: null });
    setStarting(true);
    let testId = unpaidTestId;
    try {
      if (!testId) {
        const created = await createTest({ configuration, ...createArgs });
        if (!created.paymentRequired) {
          goToMonitor(created.testId);
          return;
        }
        testId = created.testId;
        setUnpaidTestId(testId);
      }
    } catch (error) {
      const message = errorMessage(error, PAYMENT_FAILED);
      notify.error(message);
      setPayment({ open: true, processing: false, error: message });
      setStarting(false);
      return;
    }
    try {
      const { url } = await createCheckout({ testId });
      redirectToCheckout(url);
    } catch (error) {
      setPayment({ open: true, processing: false, error: errorMessage(error, PAYMENT_FAILED) });
      setStarting(false);
    }
  }

  return {
    paymentMode: mode,
    starting,
    payment,
    run: () => {
      if (starting) return;
      if (mode === "stripe" && priceCents > 0) {
        setUnpaidTestId(null);
        setPayment({ open: true, processing: false, error: null });
      } else {
        void startFree();
      }
    },
    pay: () => void pay(),
    closePayment: () => {
      if (payment.processing) return;
      setPayment({ open: false, processing: false, error: null });
      setUnpaidTestId(null);
    },
  };
}
