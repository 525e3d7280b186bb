// "Judge again" (issue 22 step 3): pick another jury for a completed test's answers. It reuses the
// setup page's evaluator picker and judging settings (a feature importing the setup feature: the
// pieces are the setup page's own, kept in one place), prices the judging alone with the same
// quote the server charges, and starts the new test the way Run Test does: checkout, or the monitor.
import { useNavigate } from "@tanstack/react-router";
import { useAction, useMutation, useQuery } from "convex/react";
import { GavelIcon } from "lucide-react";
import { useMemo, useState } from "react";

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
import { JudgingSettings, type JudgingChoice } from "@/features/setup/evaluation-section";
import { redirectToCheckout } from "@/lib/checkout-redirect";
import { ModelPickerSection } from "@/features/setup/model-picker-section";
import { SetupSection } from "@/features/setup/setup-section";
import { useCatalog } from "@/features/setup/use-catalog";
import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { formatCents } from "../../../convex/lib/format";
import { priceForCallsText } from "../../../convex/lib/moneyWords";
import { markedUpCents, quote } from "../../../convex/lib/pricing";
import { selectedCriteria } from "../../../convex/lib/types";
import type { TestConfiguration } from "../../../convex/validators";

export const JUDGE_AGAIN_TEXTS = {
  title: "Judge Again",
  description:
    "A new test over these answers with another jury. No answers are written again: you pay for the judging only.",
  pickEvaluator: "Pick at least one evaluator model.",
  pickCriterion: "Select at least one evaluation criterion.",
} as const;

interface JudgeAgainDialogProps {
  testId: Id<"tests">;
  configuration: TestConfiguration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The judges selected on opening (the results' jury advice); none otherwise. */
  initialEvaluatorIds?: readonly string[];
}

export function JudgeAgainDialog({
  testId,
  configuration,
  open,
  onOpenChange,
  initialEvaluatorIds = [],
}: JudgeAgainDialogProps) {
  const catalog = useCatalog();
  const mode = useQuery(api.tests.paymentMode)?.mode;
  const create = useMutation(api.rejudge.create);
  const createCheckout = useAction(api.payments.createCheckout);
  const navigate = useNavigate();
  const [evaluatorIds, setEvaluatorIds] = useState<string[]>([...initialEvaluatorIds]);
  const [judging, setJudging] = useState<JudgingChoice>({
    evaluationCriteria: configuration.evaluationCriteria,
    scoringParameters: configuration.scoringParameters,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const jury = useMemo(
    () => ({
      evaluatorModels: evaluatorIds.map((id) => ({ id, name: catalog.byId.get(id)?.name ?? id })),
      ...judging,
    }),
    [evaluatorIds, judging, catalog.byId],
  );
  const next: TestConfiguration = { ...configuration, ...jury };
  const judgingQuote = quote(next, catalog.prices, "judging");
  const priceCents = judgingQuote.priceCents;
  // What the jury's calls come to before the $2.00 minimum: the per-judge hints add up to it.
  const callsCents = markedUpCents(judgingQuote.estimate.totalCost);
  const paid = mode === "stripe" && priceCents > 0;
  const problem =
    evaluatorIds.length === 0
      ? JUDGE_AGAIN_TEXTS.pickEvaluator
      : selectedCriteria(judging.evaluationCriteria).length === 0
        ? JUDGE_AGAIN_TEXTS.pickCriterion
        : null;

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const created = await create({ testId, ...jury });
      if (created.paymentRequired) {
        const { url } = await createCheckout({ testId: created.testId });
        redirectToCheckout(url);
        return;
      }
      void navigate({ to: "/dashboard/monitor", search: { testId: created.testId } });
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  }

  const original = configuration.evaluatorModels.map((model) => model.name).join(", ");
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl" showCloseButton={!busy}>
        <DialogHeader>
          <DialogTitle>{JUDGE_AGAIN_TEXTS.title}</DialogTitle>
          <DialogDescription>{JUDGE_AGAIN_TEXTS.description}</DialogDescription>
        </DialogHeader>
        <p className="text-sm text-muted-foreground">This test&apos;s jury: {original}.</p>
        <ModelPickerSection
          role="evaluator"
          number={1}
          catalog={catalog}
          selectedIds={evaluatorIds}
          configuration={next}
          onToggle={(id) =>
            setEvaluatorIds((ids) => (ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id]))
          }
          onClear={() => setEvaluatorIds([])}
        />
        <SetupSection id="rejudge-settings" number={2} title="Evaluation Settings">
          <JudgingSettings
            idPrefix="rejudge"
            criteria={judging.evaluationCriteria}
            scoring={judging.scoringParameters}
            onChange={(change) => setJudging((current) => ({ ...current, ...change }))}
          />
        </SetupSection>
        <DialogError>{error}</DialogError>
        <DialogFooter className="items-center gap-3 sm:justify-between">
          <p className="text-sm" data-testid="rejudge-price">
            {problem ?? (
              <>
                Judging only:{" "}
                <span className="font-semibold tabular-nums">
                  {priceForCallsText(priceCents, callsCents, "this jury's")}
                </span>
                {mode === "free" ? " (free on this deployment)" : mode === "ownKey" ? " (runs on your own key)" : ""}
              </>
            )}
          </p>
          <div className="flex gap-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button
              type="button"
              onClick={() => void start()}
              disabled={busy || problem !== null || mode === undefined}
            >
              {busy ? <Spinner className="text-current" label="Starting" /> : <GavelIcon />}
              {paid ? `Pay ${formatCents(priceCents)}` : "Judge Again"}
            </Button>
          </div>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
