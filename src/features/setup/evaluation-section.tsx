import { RotateCcwIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import { LIMITS } from "../../../convex/lib/pricing";
import { CRITERIA, criterionLabel, EVALUATION_CRITERIA } from "../../../convex/lib/criteria";
import { DEFAULT_RANKING_PROMPT } from "../../../convex/lib/prompts";
import type { EvaluationScale } from "../../../convex/lib/types";
import type { TestConfiguration } from "../../../convex/validators";
import { SetupSection } from "./setup-section";
import { StopWhenSettledField } from "./settle-setup";
import type { SetupState } from "./setup-state";
import type { SetupActions } from "./use-setup-state";

type EvaluationCriteria = TestConfiguration["evaluationCriteria"];
type ScoringParameters = TestConfiguration["scoringParameters"];

const SCALES: readonly { value: EvaluationScale; label: string; description: string }[] = [
  {
    value: "ranking",
    label: "Ranking",
    description: "Each evaluator orders all responses to a persona and topic from best to worst, in one call.",
  },
  {
    value: "rating",
    label: "Rating",
    description: "Each evaluator scores every response from 1 to 10 on each selected criterion.",
  },
];

/** Section 7: the user prompt, the ranking prompt, criteria, scale and explanations. */
export function EvaluationSection({ state, actions }: { state: SetupState; actions: SetupActions }) {
  const { evaluationCriteria: criteria, scoringParameters: scoring } = state;
  return (
    <SetupSection id="evaluation" number={7} title="Evaluation Configuration">
      <div className="grid gap-2">
        <Label htmlFor="setup-user-prompt">User Prompt</Label>
        <Textarea
          id="setup-user-prompt"
          rows={4}
          className="max-h-80"
          maxLength={LIMITS.maxUserPromptLength}
          placeholder="e.g., Answer in no more than 150 words, in plain English."
          value={state.userPrompt}
          aria-describedby="setup-user-prompt-hint"
          onChange={(event) => actions.update({ userPrompt: event.target.value })}
        />
        <p id="setup-user-prompt-hint" className="text-xs text-muted-foreground">
          Sent to every generator model after each topic's content. {state.userPrompt.length.toLocaleString("en-US")}/
          {LIMITS.maxUserPromptLength.toLocaleString("en-US")} characters.
        </p>
      </div>

      <div className="grid gap-2">
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor="setup-ranking-prompt">Ranking Prompt</Label>
          {state.rankingPrompt !== DEFAULT_RANKING_PROMPT && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => actions.update({ rankingPrompt: DEFAULT_RANKING_PROMPT })}
            >
              <RotateCcwIcon /> Reset to Default
            </Button>
          )}
        </div>
        <Textarea
          id="setup-ranking-prompt"
          rows={3}
          className="max-h-60"
          maxLength={LIMITS.maxRankingPromptLength}
          value={state.rankingPrompt}
          aria-describedby="setup-ranking-prompt-hint"
          onChange={(event) => actions.update({ rankingPrompt: event.target.value })}
        />
        <p id="setup-ranking-prompt-hint" className="text-xs text-muted-foreground">
          The instruction the evaluator models follow when they rank the responses.{" "}
          {state.rankingPrompt.length.toLocaleString("en-US")}/{LIMITS.maxRankingPromptLength.toLocaleString("en-US")}{" "}
          characters.
        </p>
      </div>

      <JudgingSettings criteria={criteria} scoring={scoring} onChange={(change) => actions.update(change)} />
      <StopWhenSettledField state={state} actions={actions} />
    </SetupSection>
  );
}

/** What the judging settings edit: the criteria and the scoring parameters. */
export interface JudgingChoice {
  evaluationCriteria: EvaluationCriteria;
  scoringParameters: ScoringParameters;
}

/**
 * The judges' settings — criteria, scale, explanations, both orders, own family — shared by the
 * setup page's Evaluation Configuration and the results page's "Judge again" dialog. `idPrefix`
 * keeps the controls' ids apart when both are on screen.
 */
export function JudgingSettings({
  criteria,
  scoring,
  onChange,
  idPrefix = "setup",
}: {
  criteria: EvaluationCriteria;
  scoring: ScoringParameters;
  onChange: (change: Partial<JudgingChoice>) => void;
  idPrefix?: string;
}) {
  return (
    <>
      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium">Evaluation Criteria</legend>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {EVALUATION_CRITERIA.map((criterion) => {
            const id = `${idPrefix}-criterion-${criterion}`;
            return (
              <div key={criterion} className="flex items-start gap-2 rounded-md border p-3">
                <Checkbox
                  id={id}
                  checked={criteria[criterion]}
                  aria-describedby={`${id}-hint`}
                  onCheckedChange={(checked) =>
                    onChange({ evaluationCriteria: { ...criteria, [criterion]: checked === true } })
                  }
                />
                <div className="grid gap-1">
                  <Label htmlFor={id}>{criterionLabel(criterion)}</Label>
                  <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                    {CRITERIA[criterion].description}
                  </p>
                </div>
              </div>
            );
          })}
        </div>
      </fieldset>

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Scoring Scale</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {SCALES.map((scale) => {
            const id = `${idPrefix}-scale-${scale.value}`;
            const checked = scoring.scale === scale.value;
            return (
              <label
                key={scale.value}
                htmlFor={id}
                className={cn(
                  "flex cursor-pointer items-start gap-3 rounded-md border p-3",
                  checked && "border-primary bg-primary/5",
                )}
              >
                <input
                  id={id}
                  type="radio"
                  name={`${idPrefix}-scale`}
                  aria-label={scale.label}
                  value={scale.value}
                  checked={checked}
                  onChange={() => onChange({ scoringParameters: { ...scoring, scale: scale.value } })}
                  className="mt-1 accent-primary"
                />
                <span className="grid gap-1">
                  <span className="text-sm font-medium">{scale.label}</span>
                  <span className="text-xs text-muted-foreground">{scale.description}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <div className="flex items-center gap-3">
        <Switch
          id={`${idPrefix}-include-explanations`}
          checked={scoring.includeExplanations}
          onCheckedChange={(checked) => onChange({ scoringParameters: { ...scoring, includeExplanations: checked } })}
        />
        <Label htmlFor={`${idPrefix}-include-explanations`}>Include Explanations</Label>
      </div>

      {scoring.scale === "ranking" ? (
        <div className="flex items-start gap-3">
          <Switch
            id={`${idPrefix}-both-orders`}
            checked={scoring.bothOrders === true}
            onCheckedChange={(checked) => onChange({ scoringParameters: { ...scoring, bothOrders: checked } })}
            aria-describedby={`${idPrefix}-both-orders-help`}
          />
          <div className="grid gap-1">
            <Label htmlFor={`${idPrefix}-both-orders`}>Judge in both orders</Label>
            <p id={`${idPrefix}-both-orders-help`} className="text-xs text-muted-foreground">
              Every ranking call is made a second time with the answers in reverse order, which doubles the judging part
              of the price. It helps because judges tend to favour the answer they see first: with both orders that
              advantage cancels out, and each judge&apos;s position consistency is measured.
            </p>
          </div>
        </div>
      ) : null}

      <div className="flex items-start gap-3">
        <Switch
          id={`${idPrefix}-skip-own-family`}
          checked={scoring.skipOwnFamily === true}
          onCheckedChange={(checked) => onChange({ scoringParameters: { ...scoring, skipOwnFamily: checked } })}
          aria-describedby={`${idPrefix}-skip-own-family-help`}
        />
        <div className="grid gap-1">
          <Label htmlFor={`${idPrefix}-skip-own-family`}>Judges skip answers from their own family</Label>
          <p id={`${idPrefix}-skip-own-family-help`} className="text-xs text-muted-foreground">
            A judge does not score answers from its own provider&apos;s models (an OpenAI judge skips OpenAI answers),
            so no judge can favour its own family; scores are normalised so no model is penalised for having fewer
            judges. Fewer answers are judged, so it costs slightly less. Off, each judge&apos;s self-preference is still
            measured and shown.
          </p>
        </div>
      </div>
    </>
  );
}
