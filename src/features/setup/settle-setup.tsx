import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import {
  DEFAULT_SETTLE_CONFIDENCE,
  DEFAULT_SETTLE_DELTA,
  DEFAULT_SETTLE_PASS_RATE,
  SETTLE_CONFIDENCES,
  type SettleQuestion,
  type SettleQuestionKind,
} from "../../../convex/lib/settle";
import type { SetupState } from "./setup-state";
import type { SetupActions } from "./use-setup-state";

const QUESTIONS: readonly { value: SettleQuestionKind; label: string }[] = [
  { value: "best", label: "Which model is best" },
  { value: "withinDelta", label: "Is one model within δ points of the best" },
  { value: "passRate", label: "Does each model pass its checks at a rate of at least p" },
];

const selectClass = "h-9 rounded-md border border-input bg-transparent px-2 text-sm";

/**
 * "Stop when settled" (issue 35): off by default; on, the pairs run in a random order and the test
 * ends, completed, as soon as the chosen question is settled at the chosen confidence.
 */
export function StopWhenSettledField({ state, actions }: { state: SetupState; actions: SetupActions }) {
  const setting = state.stopWhenSettled;
  const update = (patch: Partial<SettleQuestion>) =>
    actions.update({
      stopWhenSettled: { ...(setting ?? { question: "best", confidence: DEFAULT_SETTLE_CONFIDENCE }), ...patch },
    });
  return (
    <div className="grid gap-3">
      <div className="flex items-start gap-3">
        <Switch
          id="setup-stop-when-settled"
          checked={setting !== undefined}
          onCheckedChange={(checked) =>
            actions.update({
              stopWhenSettled: checked ? { question: "best", confidence: DEFAULT_SETTLE_CONFIDENCE } : undefined,
            })
          }
          aria-describedby="setup-stop-when-settled-help"
        />
        <div className="grid gap-1">
          <Label htmlFor="setup-stop-when-settled">Stop when settled</Label>
          <p id="setup-stop-when-settled-help" className="text-xs text-muted-foreground">
            The persona × topic pairs run in a random order, and the test stops as soon as your question is settled at
            the confidence you choose; the calls not made are refunded. The intervals it reads stay valid however often
            it looks (confidence sequences), so stopping early does not make a false winner more likely.
          </p>
        </div>
      </div>
      {setting === undefined ? null : (
        <div className="grid gap-3 pl-12 sm:grid-cols-2">
          <div className="grid gap-1">
            <Label htmlFor="setup-settle-question">Question</Label>
            <select
              id="setup-settle-question"
              className={selectClass}
              value={setting.question}
              onChange={(event) => {
                const question = event.target.value as SettleQuestionKind;
                update({
                  question,
                  ...(question === "withinDelta"
                    ? {
                        modelId: setting.modelId ?? state.generatorModelIds[0],
                        delta: setting.delta ?? DEFAULT_SETTLE_DELTA,
                      }
                    : {}),
                  ...(question === "passRate" ? { minPassRate: setting.minPassRate ?? DEFAULT_SETTLE_PASS_RATE } : {}),
                });
              }}
            >
              {QUESTIONS.map((question) => (
                <option key={question.value} value={question.value}>
                  {question.label}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-1">
            <Label htmlFor="setup-settle-confidence">Confidence</Label>
            <select
              id="setup-settle-confidence"
              className={selectClass}
              value={String(setting.confidence)}
              onChange={(event) => update({ confidence: Number(event.target.value) })}
            >
              {SETTLE_CONFIDENCES.map((confidence) => (
                <option key={confidence} value={String(confidence)}>
                  {Math.round(confidence * 100)}%
                </option>
              ))}
            </select>
          </div>
          {setting.question === "withinDelta" ? (
            <>
              <div className="grid gap-1">
                <Label htmlFor="setup-settle-model">Model</Label>
                <select
                  id="setup-settle-model"
                  className={selectClass}
                  value={setting.modelId ?? ""}
                  onChange={(event) => update({ modelId: event.target.value })}
                >
                  {state.generatorModelIds.map((id) => (
                    <option key={id} value={id}>
                      {id}
                    </option>
                  ))}
                </select>
              </div>
              <div className="grid gap-1">
                <Label htmlFor="setup-settle-delta">δ (points on 10)</Label>
                <Input
                  id="setup-settle-delta"
                  type="number"
                  min={0}
                  max={10}
                  step={0.1}
                  value={setting.delta ?? DEFAULT_SETTLE_DELTA}
                  onChange={(event) => update({ delta: Number(event.target.value) })}
                />
              </div>
            </>
          ) : null}
          {setting.question === "passRate" ? (
            <div className="grid gap-1">
              <Label htmlFor="setup-settle-pass-rate">Lowest pass rate (%)</Label>
              <Input
                id="setup-settle-pass-rate"
                type="number"
                min={1}
                max={99}
                step={1}
                value={Math.round((setting.minPassRate ?? DEFAULT_SETTLE_PASS_RATE) * 100)}
                onChange={(event) => update({ minPassRate: Number(event.target.value) / 100 })}
              />
            </div>
          ) : null}
        </div>
      )}
    </div>
  );
}
