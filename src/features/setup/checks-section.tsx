// Setup section 8: checks on every answer, each for all topics or one, and whether an answer that
// fails one ranks last. Problems show under their field as the server would refuse them.
import { PlusIcon, Trash2Icon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import { CHECK_KINDS, takesCase, takesValue, type AnswerCheck, type CheckKind } from "../../../convex/lib/checks";
import { checkProblems } from "../../../convex/lib/checkProblems";
import { CHECK_LIMITS } from "../../../convex/lib/limits";
import { SetupSection } from "./setup-section";
import type { SetupState } from "./setup-state";
import type { SetupActions } from "./use-setup-state";

const SELECT_CLASS = cn(
  "h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs outline-none dark:bg-input/30",
  "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50",
);

/** A new check of this kind with sensible starting values. */
export function newCheck(kind: CheckKind, id = `check-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`) {
  const check: AnswerCheck = { id, kind };
  if (kind === "length") return { ...check, unit: "words" as const, max: 200 };
  if (kind === "latency") return { ...check, max: 10_000 };
  if (kind === "cost") return { ...check, max: 0.01 };
  if (kind === "jsonSchema") return { ...check, value: '{\n  "type": "object",\n  "required": ["title"]\n}' };
  return check;
}

function numberOrUndefined(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : Number.NaN;
}

export function ChecksSection({ state, actions }: { state: SetupState; actions: SetupActions }) {
  const { checks } = state;
  const problems = checkProblems(
    checks,
    state.topics.map((topic) => topic.id),
  );
  const problemOf = (index: number, field: string) =>
    problems.find((problem) => problem.field === `checks.${index}.${field}`)?.message;
  const listProblem = problems.find((problem) => problem.field === "checks")?.message;
  const replace = (index: number, check: AnswerCheck) =>
    actions.update({ checks: checks.map((current, at) => (at === index ? check : current)) });

  return (
    <SetupSection
      id="checks"
      number={8}
      title="Checks"
      description="Plain facts every answer is tested on before any judge reads it. Checks cost nothing."
    >
      {checks.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="checks-empty">
          No checks yet. Add one to test every answer for a word, a pattern, JSON, a length, a latency or a cost.
        </p>
      ) : (
        <ol className="grid gap-3" aria-label="Checks">
          {checks.map((check, index) => (
            <CheckRow
              key={check.id}
              index={index}
              check={check}
              topics={state.topics}
              problemOf={(field) => problemOf(index, field)}
              onChange={(next) => replace(index, next)}
              onRemove={() => actions.update({ checks: checks.filter((_, at) => at !== index) })}
            />
          ))}
        </ol>
      )}
      {listProblem && <p className="text-sm text-destructive">{listProblem}</p>}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={checks.length >= CHECK_LIMITS.maxChecks}
          onClick={() => actions.update({ checks: [...checks, newCheck("contains")] })}
        >
          <PlusIcon /> Add Check
        </Button>
        <span className="text-xs text-muted-foreground">
          {checks.length}/{CHECK_LIMITS.maxChecks} checks
        </span>
      </div>
      <div className="flex items-start gap-3">
        <Switch
          id="setup-checks-rank-last"
          checked={state.failedChecksRankLast}
          onCheckedChange={(checked) => actions.update({ failedChecksRankLast: checked })}
          aria-describedby="setup-checks-rank-last-help"
        />
        <div className="grid gap-1">
          <Label htmlFor="setup-checks-rank-last">An answer that fails a check ranks last</Label>
          <p id="setup-checks-rank-last-help" className="text-xs text-muted-foreground">
            The jury statistics then place it below every passing answer: last in each judge&apos;s ranking, or the
            lowest score on every criterion when rating.
          </p>
        </div>
      </div>
    </SetupSection>
  );
}

interface CheckRowProps {
  index: number;
  check: AnswerCheck;
  topics: SetupState["topics"];
  problemOf: (field: string) => string | undefined;
  onChange: (check: AnswerCheck) => void;
  onRemove: () => void;
}

function FieldProblem({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-xs text-destructive" role="alert">
      {message}
    </p>
  );
}

function CheckRow({ index, check, topics, problemOf, onChange, onRemove }: CheckRowProps) {
  const prefix = `setup-check-${index}`;
  const valueProblem = problemOf("value");
  const minProblem = problemOf("min");
  const maxProblem = problemOf("max");
  const topicProblem = problemOf("topicId");
  const label = CHECK_KINDS.find((entry) => entry.kind === check.kind)?.label ?? check.kind;
  return (
    <li className="grid gap-2 rounded-lg border p-3" data-testid="check-row">
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor={`${prefix}-kind`} className="text-xs">
            Check {index + 1}
          </Label>
          <select
            id={`${prefix}-kind`}
            className={SELECT_CLASS}
            value={check.kind}
            onChange={(event) => {
              const kind = event.target.value as CheckKind;
              onChange({ ...newCheck(kind, check.id), ...(check.topicId ? { topicId: check.topicId } : {}) });
            }}
          >
            {CHECK_KINDS.map((entry) => (
              <option key={entry.kind} value={entry.kind}>
                {entry.label}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${prefix}-topic`} className="text-xs">
            Applies to
          </Label>
          <select
            id={`${prefix}-topic`}
            className={SELECT_CLASS}
            value={check.topicId ?? ""}
            aria-invalid={topicProblem ? true : undefined}
            onChange={(event) => {
              const { topicId: _previous, ...rest } = check;
              onChange(event.target.value === "" ? rest : { ...rest, topicId: event.target.value });
            }}
          >
            <option value="">All topics</option>
            {topics.map((topic) => (
              <option key={topic.id} value={topic.id}>
                {topic.title || "Untitled topic"}
              </option>
            ))}
          </select>
        </div>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="ml-auto"
          aria-label={`Remove check ${index + 1} (${label})`}
          onClick={onRemove}
        >
          <Trash2Icon />
        </Button>
      </div>
      <FieldProblem id={`${prefix}-topic-problem`} message={topicProblem} />

      {takesValue(check.kind) && (
        <div className="grid gap-1">
          <Label htmlFor={`${prefix}-value`} className="text-xs">
            {check.kind === "regex" ? "Pattern" : check.kind === "jsonSchema" ? "JSON Schema" : "Text"}
          </Label>
          {check.kind === "jsonSchema" ? (
            <Textarea
              id={`${prefix}-value`}
              rows={4}
              className="font-mono text-xs"
              maxLength={CHECK_LIMITS.maxSchemaLength}
              value={check.value ?? ""}
              aria-invalid={valueProblem ? true : undefined}
              aria-describedby={valueProblem ? `${prefix}-value-problem` : undefined}
              onChange={(event) => onChange({ ...check, value: event.target.value })}
            />
          ) : (
            <Input
              id={`${prefix}-value`}
              className={cn(check.kind === "regex" && "font-mono")}
              maxLength={CHECK_LIMITS.maxTextLength}
              placeholder={check.kind === "regex" ? "e.g., ^\\{" : "e.g., refund"}
              value={check.value ?? ""}
              aria-invalid={valueProblem ? true : undefined}
              aria-describedby={valueProblem ? `${prefix}-value-problem` : undefined}
              onChange={(event) => onChange({ ...check, value: event.target.value })}
            />
          )}
          <FieldProblem id={`${prefix}-value-problem`} message={valueProblem} />
          {check.kind === "regex" && (
            <p className="text-xs text-muted-foreground">
              RE2 syntax, matched anywhere in the answer; start with (?i) to ignore case.
            </p>
          )}
        </div>
      )}

      {takesCase(check.kind) && (
        <div className="flex items-center gap-2">
          <Checkbox
            id={`${prefix}-case`}
            checked={check.caseSensitive === true}
            onCheckedChange={(checked) => onChange({ ...check, caseSensitive: checked === true })}
          />
          <Label htmlFor={`${prefix}-case`} className="text-sm font-normal">
            Match case
          </Label>
        </div>
      )}

      {check.kind === "length" && (
        <div className="flex flex-wrap items-end gap-2">
          <NumberField
            id={`${prefix}-min`}
            label="At least"
            value={check.min}
            problem={minProblem}
            onChange={(min) => onChange({ ...check, min })}
          />
          <NumberField
            id={`${prefix}-max`}
            label="At most"
            value={check.max}
            problem={maxProblem}
            onChange={(max) => onChange({ ...check, max })}
          />
          <div className="grid gap-1">
            <Label htmlFor={`${prefix}-unit`} className="text-xs">
              Counted in
            </Label>
            <select
              id={`${prefix}-unit`}
              className={SELECT_CLASS}
              value={check.unit ?? "words"}
              onChange={(event) => onChange({ ...check, unit: event.target.value as "words" | "characters" })}
            >
              <option value="words">words</option>
              <option value="characters">characters</option>
            </select>
          </div>
        </div>
      )}

      {check.kind === "latency" && (
        <NumberField
          id={`${prefix}-max`}
          label="Seconds at most"
          value={check.max === undefined ? undefined : check.max / 1000}
          problem={maxProblem}
          step="0.1"
          onChange={(seconds) => onChange({ ...check, max: seconds === undefined ? undefined : seconds * 1000 })}
        />
      )}

      {check.kind === "cost" && (
        <NumberField
          id={`${prefix}-max`}
          label="Dollars per answer at most"
          value={check.max}
          problem={maxProblem}
          step="0.0001"
          onChange={(max) => onChange({ ...check, max })}
        />
      )}
    </li>
  );
}

function NumberField({
  id,
  label,
  value,
  problem,
  step = "1",
  onChange,
}: {
  id: string;
  label: string;
  value: number | undefined;
  problem: string | undefined;
  step?: string;
  onChange: (value: number | undefined) => void;
}) {
  return (
    <div className="grid gap-1">
      <Label htmlFor={id} className="text-xs">
        {label}
      </Label>
      <Input
        id={id}
        type="number"
        min={0}
        step={step}
        className="w-36"
        value={value === undefined || Number.isNaN(value) ? "" : String(value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => onChange(numberOrUndefined(event.target.value))}
      />
      <FieldProblem id={`${id}-problem`} message={problem} />
    </div>
  );
}
