import { useState, type FormEvent } from "react";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/errors";
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

function ItemEditorForm<K extends string>({ kind, onOpenChange, initial, title, onSubmit }: ItemEditorDialogProps<K>) {
  const [values, setValues] = useState<Record<K, string>>(() => ({ ...kind.empty(), ...initial }));
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const heading = title ?? `${initial ? "Edit" : "Add"} ${kind.Singular}`;
  const idPrefix = `${kind.singular}-editor`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = kind.validate(values);
    if (problems.length > 0) {
      setErrors(Object.fromEntries(problems.map((problem) => [problem.field, problem.message])));
      return;
    }
    setErrors({});
    setServerError(null);
    setSaving(true);
    try {
      const trimmed = Object.fromEntries(kind.fields.map((field) => [field.key, values[field.key].trim()])) as Record<K, string>;
      await onSubmit(trimmed);
      onOpenChange(false);
    } catch (error) {
      setServerError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{heading}</DialogTitle>
        <DialogDescription>All fields are required.</DialogDescription>
      </DialogHeader>
      {kind.fields.map((field) => {
        const id = `${idPrefix}-${field.key}`;
        const error = errors[field.key];
        const describedBy = [field.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
        const common = {
          id,
          value: values[field.key],
          placeholder: field.placeholder,
          maxLength: field.maxLength,
          required: true,
          "aria-invalid": error ? true : undefined,
          "aria-describedby": describedBy || undefined,
        };
        const change = (value: string) => setValues((current) => ({ ...current, [field.key]: value }));
        return (
          <div key={field.key} className="grid gap-2">
            <div className="flex items-baseline justify-between gap-2">
              <Label htmlFor={id}>{field.label}</Label>
              {/* The limit the server enforces (convex/lib/limits), so a long paste is not cut silently. */}
              <span id={`${id}-count`} className="text-xs text-muted-foreground tabular-nums">
                {values[field.key].length.toLocaleString("en-US")}/{field.maxLength.toLocaleString("en-US")}
                <span className="sr-only"> characters, at most {field.maxLength.toLocaleString("en-US")}</span>
              </span>
            </div>
            {field.multiline ? (
              <Textarea {...common} rows={6} className="max-h-72" onChange={(event) => change(event.target.value)} />
            ) : (
              <Input {...common} onChange={(event) => change(event.target.value)} />
            )}
            {field.hint && (
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {field.hint}
              </p>
            )}
            {error && (
              <p id={`${id}-error`} className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
        );
      })}
      {serverError && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          {serverError}
        </p>
      )}
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
  );
}
