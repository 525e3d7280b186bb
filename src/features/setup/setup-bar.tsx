import { ClockIcon, FileTextIcon, PlayIcon, SaveIcon, ScaleIcon } from "lucide-react";
import { useState } from "react";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { formatCents, formatTestCost } from "../../../convex/lib/format";
import { formatPriceRange } from "../../../convex/lib/pricing";
import { evaluationPromptPreview, generationPromptPreview } from "../../../convex/lib/prompts";
import type { SetupState } from "./setup-state";
import type { PaymentMode } from "./use-run-test";
import type { SetupPrice } from "./use-setup-price";

const HINTS_SHOWN = 4;
/** On a phone the bar keeps to two short rows and one hint line (at most a fifth of the screen). */
const HINTS_SHOWN_PHONE = 1;

interface SetupBarProps {
  state: SetupState;
  price: SetupPrice;
  starting: boolean;
  /** Run stays disabled until the payment mode is known. */
  ready: boolean;
  /** Undefined while loading: the quote is shown until the mode is known. */
  paymentMode?: PaymentMode;
  onSaveTemplate: () => void;
  onRun: () => void;
}

/** Save Template shows once there is something worth saving. */
export function canSaveTemplate(state: SetupState): boolean {
  return state.personas.length > 0 && state.topics.length > 0 && state.userPrompt.trim() !== "";
}

/** The sticky bottom bar: price, time, prompt previews, Save Template and Run Test. */
/**
 * What Run Test will charge: the quote on a paid deployment, nothing when runs are free here or
 * use the user's own key (the gateway then bills the key, shown beside it as an estimate).
 */
export function chargedCents(quotedCents: number, mode: PaymentMode | undefined): number {
  return mode === "free" || mode === "ownKey" ? 0 : quotedCents;
}

export function SetupBar({ state, price, starting, ready, paymentMode, onSaveTemplate, onRun }: SetupBarProps) {
  const [preview, setPreview] = useState<"generation" | "evaluation" | null>(null);
  const hints = price.problems.map((problem) => problem.message);
  const extraHints = hints.length - HINTS_SHOWN;
  const extraHintsPhone = hints.length - HINTS_SHOWN_PHONE;
  const disabled = starting || !ready || !price.canRun;

  return (
    <div
      // Opaque: the page scrolls underneath, and text showing through made the price hard to read.
      className="fixed inset-x-0 bottom-0 z-30 border-t bg-background shadow-[0_-4px_12px_-6px_rgb(0_0_0/0.15)]"
      data-testid="setup-bar"
      role="region"
      aria-label="Test summary"
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-2 sm:gap-2 sm:py-3">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 sm:gap-x-6 sm:gap-y-2">
          <div>
            <p className="text-xs text-muted-foreground">Total Price</p>
            <p
              className="text-xl leading-tight font-bold tabular-nums sm:text-2xl"
              data-testid="setup-total-price"
              aria-live="polite"
            >
              {formatCents(chargedCents(price.quote.priceCents, paymentMode))}
            </p>
          </div>
          {price.settledRange && chargedCents(price.quote.priceCents, paymentMode) > 0 && (
            // Stop when settled: paid in full now, the calls not made refunded when it settles.
            <div className="text-sm">
              <p className="text-xs text-muted-foreground">If it settles early</p>
              <p className="font-medium tabular-nums" data-testid="setup-settled-range">
                {formatPriceRange(price.settledRange)}
              </p>
            </div>
          )}
          {paymentMode === "ownKey" && (
            <div className="text-sm">
              <p className="text-xs text-muted-foreground">Gateway cost on your key</p>
              <p className="font-medium tabular-nums" data-testid="setup-own-key-cost">
                ≈ {formatTestCost(price.quote.estimate.totalCost)}
              </p>
            </div>
          )}
          {paymentMode === "free" && price.quote.priceCents > 0 && (
            <p className="text-xs text-muted-foreground" data-testid="setup-free-note">
              Free on this deployment
            </p>
          )}
          <div className="text-sm">
            <p className="flex items-center gap-1 text-xs text-muted-foreground">
              <ClockIcon aria-hidden="true" className="size-3" /> Estimated Time
            </p>
            <p className="font-medium" data-testid="setup-time-range">
              {price.timeLabel}
            </p>
            {price.timeNote && (
              <p className="max-w-xs text-xs text-muted-foreground" data-testid="setup-time-note">
                {price.timeNote}
              </p>
            )}
          </div>
          {state.checks.length > 0 && (
            <div className="hidden text-sm sm:block">
              <p className="text-xs text-muted-foreground">Checks</p>
              <p className="font-medium" data-testid="setup-checks-price">
                {state.checks.length} × $0.00
              </p>
            </div>
          )}
          <div className="hidden text-sm sm:block">
            <p className="text-xs text-muted-foreground">Queries</p>
            <p className="font-medium tabular-nums" data-testid="setup-queries">
              {price.queries}
            </p>
          </div>
          {/* A phone gets one row of icon buttons (their names stay for screen readers) and Run Test. */}
          <div className="flex w-full flex-nowrap items-center gap-2 sm:ml-auto sm:w-auto sm:flex-wrap">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => setPreview("generation")}
              title="Generation Prompt"
            >
              <FileTextIcon /> <span className="sr-only sm:not-sr-only">Generation Prompt</span>
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => setPreview("evaluation")}
              title="Evaluation Prompt"
            >
              <ScaleIcon /> <span className="sr-only sm:not-sr-only">Evaluation Prompt</span>
            </Button>
            {canSaveTemplate(state) && (
              <Button type="button" variant="secondary" size="sm" onClick={onSaveTemplate} title="Save Template">
                <SaveIcon /> <span className="sr-only sm:not-sr-only">Save Template</span>
              </Button>
            )}
            <Button
              type="button"
              onClick={onRun}
              disabled={disabled}
              className="ml-auto sm:ml-0"
              aria-describedby={hints.length > 0 ? "run-test-hints" : undefined}
            >
              {starting ? <Spinner className="text-current" label="Starting test" /> : <PlayIcon />}
              {starting ? "Starting Test..." : "Run Test"}
            </Button>
          </div>
        </div>
        {hints.length > 0 && (
          <ul
            id="run-test-hints"
            data-testid="run-test-hints"
            aria-label="Before you can run this test"
            className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-amber-700 dark:text-amber-400"
          >
            {hints.slice(0, HINTS_SHOWN).map((hint, index) => (
              <li key={index} className={index >= HINTS_SHOWN_PHONE ? "hidden sm:list-item" : undefined}>
                {hint}
              </li>
            ))}
            {extraHintsPhone > 0 && <li className="sm:hidden">and {extraHintsPhone} more</li>}
            {extraHints > 0 && <li className="hidden sm:list-item">and {extraHints} more</li>}
          </ul>
        )}
      </div>

      <Dialog open={preview !== null} onOpenChange={(open) => !open && setPreview(null)}>
        <DialogContent className="sm:max-w-3xl">
          <DialogHeader>
            <DialogTitle>{preview === "evaluation" ? "Evaluation Prompt" : "Generation Prompt"}</DialogTitle>
            <DialogDescription>
              {preview === "evaluation"
                ? "What each evaluator model is asked, with placeholder answers."
                : "What each generator model is sent for the first persona and topic."}
            </DialogDescription>
          </DialogHeader>
          <pre
            className="max-h-[60dvh] overflow-y-auto rounded-md bg-muted p-4 font-mono text-xs break-words whitespace-pre-wrap"
            data-testid="prompt-preview"
          >
            {preview === "evaluation" ? evaluationPromptPreview(state) : generationPromptPreview(state)}
          </pre>
        </DialogContent>
      </Dialog>
    </div>
  );
}
