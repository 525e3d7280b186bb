import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { DialogError } from "@/components/dialog-error";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { DialogHeading } from "@/components/dialog-heading";
import { Dialog, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/errors";
import { personaSchema, topicSchema } from "../../../convex/lib/forms";
import type { ItemKind } from "./item-kinds";

interface ItemEditorDialogProps<K extends string> {
  kind: ItemKind<K>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The item being edited; a new one when absent. */
  initial?: Readonly<Record<K, string>>;
  /** e.g. 'Edit Saved Persona'; defaults to 'Add Persona' / 'Edit Persona'. */
  title?: string;
  onSubmit: (values: Record<K, string>) => void | Promise<void>;
}

/** The persona or topic editor: every field required, nothing submitted while one is empty. */
export function ItemEditorDialog<K extends string>(props: ItemEditorDialogProps<K>) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        {/* Remounted on each opening so the form starts from the item it edits. */}
        {props.open && <ItemEditorForm {...props} />}
      </DialogContent>
    </Dialog>
  );
}

/** The editor's rules, the same the server parses with (convex/lib/forms). */
const SCHEMAS: Record<ItemKind<string>["singular"], z.ZodType<Record<string, string>, Record<string, string>>> = {
  persona: personaSchema,
  topic: topicSchema,
};

function ItemEditorForm<K extends string>({ kind, onOpenChange, initial, title, onSubmit }: ItemEditorDialogProps<K>) {
  const form = useForm<Record<string, string>>({
    resolver: zodResolver(SCHEMAS[kind.singular]),
    defaultValues: { ...kind.empty(), ...initial },
  });
  const [serverError, setServerError] = useState<string | null>(null);
  const heading = title ?? `${initial ? "Edit" : "Add"} ${kind.Singular}`;
  const saving = form.formState.isSubmitting;

  // The schema's output is trimmed.
  async function submit(values: Record<string, string>) {
    setServerError(null);
    try {
      await onSubmit(values as Record<K, string>);
      onOpenChange(false);
    } catch (error) {
      setServerError(errorMessage(error));
    }
  }

  return (
    <Form {...form}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-4">
        <DialogHeading title={heading} description="All fields are required." />
        {kind.fields.map((spec) => (
          <FormField
            key={spec.key}
            control={form.control}
            name={spec.key}
            render={({ field }) => (
              <FormItem>
                <div className="flex items-baseline justify-between gap-2">
                  <FormLabel>{spec.label}</FormLabel>
                  {/* The limit the server enforces (convex/lib/limits), so a long paste is not cut silently. */}
                  <span className="text-xs text-muted-foreground tabular-nums">
                    {field.value.length.toLocaleString("en-US")}/{spec.maxLength.toLocaleString("en-US")}
                    <span className="sr-only"> characters, at most {spec.maxLength.toLocaleString("en-US")}</span>
                  </span>
                </div>
                <FormControl>
                  {spec.multiline ? (
                    <Textarea
                      placeholder={spec.placeholder}
                      maxLength={spec.maxLength}
                      required
                      rows={6}
                      className="max-h-72"
                      {...field}
                    />
                  ) : (
                    <Input placeholder={spec.placeholder} maxLength={spec.maxLength} required {...field} />
                  )}
                </FormControl>
                {spec.hint && <FormDescription className="text-xs">{spec.hint}</FormDescription>}
                <FormMessage />
              </FormItem>
            )}
          />
        ))}
        <DialogError>{serverError}</DialogError>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving && <Spinner className="text-current" label="Saving" />}
            {initial ? "Save Changes" : `Add ${kind.Singular}`}
          </Button>
        </DialogFooter>
      </form>
    </Form>
  );
}
