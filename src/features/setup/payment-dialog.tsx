import { LockIcon } from "lucide-react";

import { DialogError } from "@/components/dialog-error";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { formatCents } from "../../../convex/lib/format";
import type { TestConfiguration } from "../../../convex/validators";
import type { PaymentDialogState } from "./use-run-test";

interface PaymentDialogProps {
  state: PaymentDialogState;
  configuration: TestConfiguration;
  priceCents: number;
  queries: number;
  onPay: () => void;
  onClose: () => void;
}

/** 'Complete Payment': what is about to run and its price, before the checkout. */
export function PaymentDialog({ state, configuration, priceCents, queries, onPay, onClose }: PaymentDialogProps) {
  const rows: [string, string | number][] = [
    ["Test", configuration.name.trim() || "Unnamed Test"],
    ["Generator models", configuration.generatorModels.length],
    ["Evaluator models", configuration.evaluatorModels.length],
    ["Personas", configuration.personas.length],
    ["Topics", configuration.topics.length],
    ["Responses per topic", configuration.responsesPerTopic],
    ["Queries", queries],
  ];
  // Checks run on every answer without a model call: the price says they cost nothing.
  const checks = configuration.checks?.length ?? 0;
  if (checks > 0) rows.push(["Checks", `${checks} × $0.00`]);
  return (
    <Dialog open={state.open} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" showCloseButton={!state.processing}>
        <DialogHeader>
          <DialogTitle>Complete Payment</DialogTitle>
          <DialogDescription>Pay for this test to start it.</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1.5 text-sm" data-testid="payment-summary">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="text-right font-medium break-all tabular-nums">{value}</dd>
            </div>
          ))}
          <div className="contents">
            <dt className="border-t pt-2 font-medium">Total</dt>
            <dd className="border-t pt-2 text-right text-lg font-semibold tabular-nums" data-testid="payment-total">
              {formatCents(priceCents)}
            </dd>
          </div>
        </dl>
        <p className="flex items-center gap-2 text-xs text-muted-foreground">
          <LockIcon aria-hidden="true" className="size-3.5" /> You will be redirected to secure checkout.
        </p>
        <DialogError>{state.error}</DialogError>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={state.processing}>
            Cancel
          </Button>
          <Button type="button" onClick={onPay} disabled={state.processing}>
            {state.processing && <Spinner className="text-current" label="Redirecting to checkout" />}
            {state.processing ? "Redirecting..." : `Pay ${formatCents(priceCents)}`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
