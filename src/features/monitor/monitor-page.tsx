import { Link, useNavigate } from "@tanstack/react-router";
import { SettleNotice } from "@/components/settle-notice";
import { useMutation, useQuery } from "convex/react";
import { ActivityIcon, CreditCardIcon, FlaskConicalIcon } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { toast } from "sonner";

import { EmptyState } from "@/components/empty-state";
import { ErrorState } from "@/components/error-state";
import { isTestAccessLost, TestAccessLost } from "@/components/test-access-lost";
import { Spinner } from "@/components/spinner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { errorMessage } from "@/lib/errors";
import { paymentSessionSearch } from "@/lib/payment-return";

import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { forgetCurrentTestId, readCurrentTestId, rememberCurrentTestId } from "./current-test-storage";
import { MonitorSkeleton } from "./monitor-skeleton";
import { MonitorView } from "./monitor-view";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { usePaymentReturn, type PaymentReturn } from "./use-payment-return";
import { useNow } from "@/hooks/use-now";
import { useSpace } from "@/lib/space-context";

export const PAYMENT_CONFIRMED = "Payment confirmed. Your test is on its way.";
const PAYMENT_TOAST = "payment-confirmed";

interface MonitorPageProps {
  /** ?testId= — the test to watch; without it, the user's running (else pending) test. */
  testId?: string;
  /** A return from payment (lib/payment-return.ts), verified once before anything else. */
  sessionId?: string;
}

/** /dashboard/monitor: the live monitor of the current test (spec part 1 §2). */
export function MonitorPage(props: MonitorPageProps) {
  return (
    <QueryErrorBoundary
      fallback={(error, reset) =>
        isTestAccessLost(error) ? (
          <MonitorAccessLost testId={props.testId} />
        ) : (
          <ErrorState title="Could not load the test" message={errorMessage(error)} onRetry={reset} />
        )
      }
    >
      <MonitorScreen {...props} />
    </QueryErrorBoundary>
  );
}

function MonitorScreen({ testId, sessionId }: MonitorPageProps) {
  const navigate = useNavigate();
  const payment = usePaymentReturn(sessionId);
  const paymentState = payment.state;
  const paymentTestId = paymentTestIdOf(payment);
  const confirming = paymentState === "confirming";
  const requestedId = testId ?? paymentTestId ?? undefined;
  const shownId = useMonitoredTestId(requestedId, confirming);
  const data = useQuery(api.tests.monitor, shownId ? { testId: shownId } : "skip");
  const now = useNow(1000);
  const cancelTest = useMutation(api.tests.cancel);

  // Keep the address on the test shown, so a reload or a second browser shows the same test and
  // the view stays on it after it completes. The session id stays only while the payment is
  // unconfirmed, so that a reload asks again.
  useEffect(() => {
    if (confirming) return;
    let targetId: string | undefined;
    if (shownId !== undefined) targetId = shownId ?? undefined;
    else if (paymentState === "confirmed" && paymentTestId) targetId = paymentTestId;
    else return;
    const targetSession = paymentState === "unconfirmed" ? sessionId : undefined;
    if (targetId === testId && targetSession === sessionId) return;
    void navigate({ to: "/dashboard/monitor", search: searchOf(targetId, targetSession), replace: true });
  }, [confirming, shownId, paymentState, paymentTestId, sessionId, testId, navigate]);

  const confirmed = paymentState === "confirmed";
  useEffect(() => {
    if (confirmed) toast.success(PAYMENT_CONFIRMED, { id: PAYMENT_TOAST });
  }, [confirmed]);
  // A test that failed is not on its way: the confirmation gives way to the failure notice.
  const failed = data?.test.status === "failed";
  useEffect(() => {
    if (failed) toast.dismiss(PAYMENT_TOAST);
  }, [failed]);

  // The tab's current test (for /dashboard/results); stopping a test clears it (spec part 1 §4).
  // An unpaid draft never becomes the current test.
  const shownTestId = data?.test._id;
  const shownStatus = data?.test.status;
  const shownDraft = data?.test.awaitingPayment === true;
  useEffect(() => {
    if (!shownTestId || shownDraft) return;
    if (shownStatus === "cancelled") forgetCurrentTestId(shownTestId);
    else rememberCurrentTestId(shownTestId);
  }, [shownTestId, shownStatus, shownDraft]);

  if (confirming) return <ConfirmingPayment />;

  // Shown until the payment lands: then the job leaves pending_payment and the notice goes.
  const paymentNotice: ReactNode =
    paymentState === "unconfirmed" && (!data || data.test.jobStatus === "pending_payment") ? (
      <PaymentNotConfirmed hasTest={Boolean(shownId)} />
    ) : null;

  if (shownId === undefined) return <MonitorSkeleton />;
  if (shownId === null) {
    return (
      <div className="space-y-6">
        <h1 className="text-3xl font-bold tracking-tight">Test Monitor</h1>
        {paymentNotice}
        <NoTestRunning />
      </div>
    );
  }
  if (data === undefined) return <MonitorSkeleton />;

  const stop = async () => {
    try {
      await cancelTest({ testId: data.test._id });
      forgetCurrentTestId(data.test._id);
      toast.success("Test stopped");
    } catch (error) {
      toast.error(errorMessage(error, "The test could not be stopped. Please try again."));
      throw error;
    }
  };

  return (
    <div className="space-y-6">
      {paymentNotice}
      <SettleNotice testId={data.test._id} />
      <MonitorView
        data={data}
        now={now}
        onStop={stop}
        onDiscarded={() => {
          forgetCurrentTestId(data.test._id);
          void navigate({ to: "/dashboard/monitor", search: {}, replace: true });
        }}
      />
    </div>
  );
}

/**
 * The test shown belongs to a team the caller is not (or no longer) in: the results' access-lost
 * screen. The tab forgets it as its current test, so the monitor does not come back to it.
 */
function MonitorAccessLost({ testId }: { testId: string | undefined }) {
  useEffect(() => forgetCurrentTestId(testId), [testId]);
  return <TestAccessLost />;
}

function paymentTestIdOf(payment: PaymentReturn): Id<"tests"> | null {
  return payment.state === "confirmed" || payment.state === "unconfirmed" ? payment.testId : null;
}

function searchOf(testId: string | undefined, sessionId: string | undefined) {
  return {
    ...(testId !== undefined ? { testId } : {}),
    ...paymentSessionSearch(sessionId),
  };
}

/**
 * The test to show: the one asked for (if the caller may see it), else the chosen space's running,
 * else pending test, else the tab's remembered current test (kept after completion, as the spec's
 * current test is). undefined while loading, null when there is none.
 */
function useMonitoredTestId(requestedId: string | undefined, paused: boolean): Id<"tests"> | null | undefined {
  const [rememberedId] = useState(readCurrentTestId);
  const { teamId } = useSpace();
  const active = useQuery(
    api.tests.current,
    paused ? "skip" : requestedId ? { testId: requestedId as Id<"tests"> } : teamId === null ? {} : { teamId },
  );
  const fallBack = !paused && !requestedId && active === null && rememberedId !== null;
  const remembered = useQuery(api.tests.current, fallBack ? { testId: rememberedId as Id<"tests"> } : "skip");
  const resolved = paused ? undefined : fallBack ? remembered : active;

  // While a new answer loads (the address gaining ?testId= changes the query's arguments), the
  // last one holds, so the monitor does not flash its skeleton.
  const [held, setHeld] = useState(resolved);
  if (resolved !== undefined && resolved !== held) setHeld(resolved);
  if (paused) return undefined;
  return resolved === undefined ? held : resolved;
}

function ConfirmingPayment() {
  return (
    <Card className="mx-auto max-w-lg">
      <CardContent className="flex flex-col items-center gap-4 py-6 text-center" role="status">
        <Spinner className="size-8" label="Confirming your payment" />
        <div className="space-y-1">
          <h1 className="text-xl font-semibold">Confirming your payment…</h1>
          <p className="text-sm text-muted-foreground">
            This takes a moment. Your test starts once the payment is confirmed.
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

function PaymentNotConfirmed({ hasTest }: { hasTest: boolean }) {
  return (
    <Alert>
      <CreditCardIcon />
      <AlertTitle>Payment not confirmed yet</AlertTitle>
      <AlertDescription>
        {hasTest
          ? "We could not confirm your payment yet. If you completed the checkout, the confirmation may still be on its way: this page keeps watching your test, and it starts as soon as the payment lands."
          : "We could not confirm your payment yet. If you completed the checkout, the confirmation may still be on its way; your test will appear here once it does."}
      </AlertDescription>
    </Alert>
  );
}

function NoTestRunning() {
  return (
    <EmptyState
      icon={ActivityIcon}
      title="No Test Running"
      description="Start a test and watch its responses, evaluations and rankings arrive here live."
      action={
        <Button asChild>
          <Link to="/dashboard/setup">
            <FlaskConicalIcon /> Go to Test Setup
          </Link>
        </Button>
      }
    />
  );
}
