// "Repeats" (issue 35, item 4): each model × persona × topic cell runs this many times, each run a
// fresh gateway call judged on its own, so the results can show how much a model's score moves
// from run to run. The sticky bar prices it (every call × repeats).
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { REPEAT_LIMITS, repeatProblems } from "../../../convex/lib/repeats";
import type { SetupState } from "./setup-state";
import type { SetupActions } from "./use-setup-state";

export function RepeatsField({ state, actions }: { state: SetupState; actions: SetupActions }) {
  const repeats = state.repeats ?? 1;
  const problem = repeatProblems(state.repeats)[0]?.message;
  return (
    <div className="grid gap-2">
      <Label htmlFor="setup-repeats">Repeats</Label>
      <Input
        id="setup-repeats"
        type="number"
        inputMode="numeric"
        min={REPEAT_LIMITS.min}
        max={REPEAT_LIMITS.max}
        step={1}
        // A bad value stays as typed: the sticky bar names the problem and Run Test waits.
        value={Number.isNaN(repeats) ? "" : repeats}
        aria-invalid={problem !== undefined}
        aria-describedby="setup-repeats-help"
        onChange={(event) => {
          const text = event.target.value.trim();
          actions.update({ repeats: text === "" ? Number.NaN : Number(text) });
        }}
      />
      <p id="setup-repeats-help" className="text-xs text-muted-foreground">
        {problem ??
          (repeats > 1
            ? `Each model answers every persona × topic ${repeats} times, in fresh calls judged apart: ${repeats}× the calls and the price. The results show how much each model's score moves between runs.`
            : `Run each model × persona × topic up to ${REPEAT_LIMITS.max} times to see how much a model's score moves between runs; the calls and the price grow with it.`)}
      </p>
    </div>
  );
}
