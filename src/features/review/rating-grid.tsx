// Scoring a pair's answers on the test's criteria, 1–10 like the judges. Each answer × criterion
// is a group of native radio buttons: Tab reaches the group, the arrow keys change the score, and
// a number key sets it directly (0 for 10).
import type { KeyboardEvent } from "react";

import { Markdown } from "@/components/markdown";
import { cn } from "@/lib/utils";

import { criterionLabel } from "../../../convex/lib/criteria";
import { RATING_MAX, RATING_MIN, type RatingScores, type ReviewAnswer } from "./review-model";

export const RATING_HELP =
  "Score every answer on every criterion, 1 (poor) to 10 (excellent). In a row of scores, the arrow keys or a number key (0 for 10) set it.";

const VALUES = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, index) => RATING_MIN + index);

interface RatingGridProps {
  answers: readonly ReviewAnswer[];
  criteria: readonly string[];
  scores: RatingScores;
  onChange: (scores: RatingScores) => void;
  editable: boolean;
}

export function RatingGrid({ answers, criteria, scores, onChange, editable }: RatingGridProps) {
  const set = (label: string, criterion: string, value: number) =>
    onChange({ ...scores, [label]: { ...scores[label], [criterion]: value } });
  return (
    <div className="space-y-3">
      {editable && <p className="text-xs text-muted-foreground">{RATING_HELP}</p>}
      <ul className="space-y-4" aria-label="Answers to score">
        {answers.map((answer) => (
          <li
            key={answer.label}
            className="grid gap-4 rounded-lg border bg-card p-4 lg:grid-cols-[minmax(0,1fr)_auto]"
            data-testid="rated-answer"
            data-label={answer.label}
          >
            <div className="min-w-0 space-y-2">
              <h3 className="font-medium">Answer {answer.label}</h3>
              <div className="max-h-80 overflow-y-auto">
                <Markdown>{answer.content}</Markdown>
              </div>
            </div>
            {editable && (
              <div className="space-y-3">
                {criteria.map((criterion) => (
                  <ScoreRow
                    key={criterion}
                    label={answer.label}
                    criterion={criterion}
                    value={scores[answer.label]?.[criterion]}
                    onChange={(value) => set(answer.label, criterion, value)}
                  />
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ScoreRow({
  label,
  criterion,
  value,
  onChange,
}: {
  label: string;
  criterion: string;
  value: number | undefined;
  onChange: (value: number) => void;
}) {
  const name = `score-${label}-${criterion}`;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !/^[0-9]$/.test(event.key)) return;
    event.preventDefault();
    const chosen = event.key === "0" ? RATING_MAX : Number(event.key);
    onChange(chosen);
    const group = event.currentTarget.closest("fieldset");
    group?.querySelector<HTMLInputElement>(`input[value="${chosen}"]`)?.focus();
  };
  return (
    <fieldset className="space-y-1" aria-label={`${criterionLabel(criterion)} of answer ${label}`}>
      <legend className="text-xs font-medium text-muted-foreground">
        {criterionLabel(criterion)}
        {value !== undefined && <span className="ml-1 text-foreground tabular-nums">{value}/10</span>}
      </legend>
      <div className="flex gap-0.5">
        {VALUES.map((score) => (
          <label key={score} className="relative">
            <input
              type="radio"
              name={name}
              value={score}
              checked={value === score}
              onChange={() => onChange(score)}
              onKeyDown={onKeyDown}
              className="peer sr-only"
              aria-label={`${score}`}
            />
            <span
              aria-hidden="true"
              className={cn(
                "flex size-7 cursor-pointer items-center justify-center rounded-md border text-xs tabular-nums",
                "peer-focus-visible:ring-2 peer-focus-visible:ring-ring hover:bg-muted",
                value === score && "border-primary bg-primary text-primary-foreground hover:bg-primary",
              )}
            >
              {score}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
