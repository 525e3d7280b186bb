import { useState } from "react";

import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { LIMITS } from "../../../convex/lib/pricing";
import { templateCategoryLabel } from "../../../convex/lib/templates";
import { SetupSection } from "./setup-section";
import type { SetupState } from "./setup-state";
import type { SetupActions } from "./use-setup-state";

interface TestConfigurationSectionProps {
  state: SetupState;
  actions: SetupActions;
}

/** Section 2: name, responses per topic (1-10) and the template's category (read-only). */
export function TestConfigurationSection({ state, actions }: TestConfigurationSectionProps) {
  return (
    <SetupSection id="configuration" number={2} title="Test Configuration">
      <div className="grid gap-4 md:grid-cols-3">
        <div className="grid gap-2 md:col-span-1">
          <Label htmlFor="setup-test-name">Test Name</Label>
          <Input
            id="setup-test-name"
            value={state.name}
            maxLength={LIMITS.maxTestNameLength}
            placeholder="e.g., Landing page copy comparison"
            onChange={(event) => actions.update({ name: event.target.value })}
          />
        </div>
        <ResponsesPerTopicField
          value={state.responsesPerTopic}
          onChange={actions.setResponsesPerTopic}
        />
        <div className="grid gap-2">
          <Label htmlFor="setup-category">Category</Label>
          <Input id="setup-category" value={templateCategoryLabel(state.category)} readOnly aria-readonly="true" />
          <p className="text-xs text-muted-foreground">Set by the template you apply.</p>
        </div>
      </div>
    </SetupSection>
  );
}

/** Keeps what is typed until it is a whole number from 1 to 10; out-of-range text is put back on blur. */
function ResponsesPerTopicField({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  // Null while not editing: the field shows the draft's value (which a template may change).
  const [editing, setEditing] = useState<string | null>(null);
  const text = editing ?? String(value);
  const parsed = Number(text);
  const valid =
    text.trim() !== "" &&
    Number.isInteger(parsed) &&
    parsed >= LIMITS.minResponsesPerTopic &&
    parsed <= LIMITS.maxResponsesPerTopic;
  return (
    <div className="grid gap-2">
      <Label htmlFor="setup-responses-per-topic">Responses per Topic</Label>
      <Input
        id="setup-responses-per-topic"
        type="number"
        inputMode="numeric"
        min={LIMITS.minResponsesPerTopic}
        max={LIMITS.maxResponsesPerTopic}
        step={1}
        value={text}
        aria-invalid={!valid}
        aria-describedby="setup-responses-per-topic-hint"
        onChange={(event) => {
          const next = event.target.value;
          setEditing(next);
          const number = Number(next);
          if (
            next.trim() !== "" &&
            Number.isInteger(number) &&
            number >= LIMITS.minResponsesPerTopic &&
            number <= LIMITS.maxResponsesPerTopic
          ) {
            onChange(number);
          }
        }}
        onBlur={() => setEditing(null)}
      />
      <p id="setup-responses-per-topic-hint" className={valid ? "text-xs text-muted-foreground" : "text-xs text-destructive"}>
        A whole number from {LIMITS.minResponsesPerTopic} to {LIMITS.maxResponsesPerTopic}.
      </p>
    </div>
  );
}
