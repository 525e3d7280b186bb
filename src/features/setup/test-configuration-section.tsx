import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";

import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { responsesPerTopicField } from "../../../convex/lib/forms";
import { LIMITS } from "../../../convex/lib/pricing";
import { templateCategoryLabel } from "../../../convex/lib/templates";
import { RepeatsField } from "./repeats-field";
import { SetupSection } from "./setup-section";
import type { SetupState } from "./setup-state";
import type { SetupActions } from "./use-setup-state";

interface TestConfigurationSectionProps {
  state: SetupState;
  actions: SetupActions;
}

/** Section 2: name, responses per topic (1-10), repeats (1-10) and the template's category (read-only). */
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
        <ResponsesPerTopicField value={state.responsesPerTopic} onChange={actions.setResponsesPerTopic} />
        <RepeatsField state={state} actions={actions} />
        <div className="grid gap-2">
          <Label htmlFor="setup-category">Category</Label>
          <Input id="setup-category" value={templateCategoryLabel(state.category)} readOnly aria-readonly="true" />
          <p className="text-xs text-muted-foreground">Set by the template you apply.</p>
        </div>
      </div>
    </SetupSection>
  );
}

const responsesPerTopicSchema = z.object({ responsesPerTopic: responsesPerTopicField });
type ResponsesPerTopicInput = z.input<typeof responsesPerTopicSchema>;
type ResponsesPerTopicOutput = z.output<typeof responsesPerTopicSchema>;

/**
 * Keeps what is typed and says when it is not a whole number from 1 to 10; the draft gets the
 * number as typed, so the sticky bar names the same problem and Run Test waits for a good one.
 */
function ResponsesPerTopicField({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const form = useForm<ResponsesPerTopicInput, unknown, ResponsesPerTopicOutput>({
    resolver: zodResolver(responsesPerTopicSchema),
    mode: "onChange",
    defaultValues: { responsesPerTopic: String(value) },
  });
  // The value this field last gave the draft: any other is the draft's own (a template applied).
  const sent = useRef(value);
  const { reset } = form;
  useEffect(() => {
    if (Object.is(value, sent.current)) return;
    sent.current = value;
    reset({ responsesPerTopic: String(value) });
  }, [value, reset]);

  return (
    <Form {...form}>
      <FormField
        control={form.control}
        name="responsesPerTopic"
        render={({ field }) => (
          <FormItem>
            <FormLabel>Responses per Topic</FormLabel>
            <FormControl>
              <Input
                type="number"
                inputMode="numeric"
                min={LIMITS.minResponsesPerTopic}
                max={LIMITS.maxResponsesPerTopic}
                step={1}
                {...field}
                onChange={(event) => {
                  field.onChange(event);
                  const parsed = responsesPerTopicField.safeParse(event.target.value);
                  const next = parsed.success ? parsed.data : Number(event.target.value.trim() || Number.NaN);
                  sent.current = next;
                  onChange(next);
                }}
              />
            </FormControl>
            <FormDescription className="text-xs">
              A whole number from {LIMITS.minResponsesPerTopic} to {LIMITS.maxResponsesPerTopic}.
            </FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
    </Form>
  );
}
