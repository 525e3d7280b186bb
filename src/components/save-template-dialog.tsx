import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "convex/react";
import { PlusIcon, XIcon } from "lucide-react";
import { useState, type KeyboardEvent } from "react";
import { useForm } from "react-hook-form";
import { toast, type ExternalToast } from "sonner";
import type { z } from "zod";

import { DialogError } from "@/components/dialog-error";
import { TextField } from "@/components/form-fields";
import { Spinner } from "@/components/spinner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DialogHeading } from "@/components/dialog-heading";
import { Dialog, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { appErrorData } from "@/lib/errors";
import { api } from "../../convex/_generated/api";
import { problemsOf, templateContentSchema, templateFormSchema, type TemplateForm } from "../../convex/lib/forms";
import { templateDataLimitProblems } from "../../convex/lib/limits";
import {
  DEFAULT_TEMPLATE_CATEGORY,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  addTag,
  templateCategoryLabel,
  type TemplateCategory,
} from "../../convex/lib/templates";
import type { TemplateData } from "../../convex/validators";

export const SAVE_TEMPLATE_FAILED = "Failed to save template. Please try again.";

interface SaveTemplateDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What is saved: the setup's draft or a finished test's configuration. */
  templateData: TemplateData;
  defaultName?: string;
  defaultCategory?: TemplateCategory;
  /** Where the "saved" toast shows (the setup page keeps its sticky bar clear). */
  toastOptions?: ExternalToast;
}

/** Save as Template: name, description with a counter, up to 5 tags, category, private or public. */
export function SaveTemplateDialog({ open, onOpenChange, ...form }: SaveTemplateDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        {open && <SaveTemplateForm {...form} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

/** The fields a refusal of templates.create can name; anything else shows above the buttons. */
const FORM_FIELDS = ["name", "description", "tags"] as const;
type RefusableField = (typeof FORM_FIELDS)[number];

function refusedField(error: unknown): RefusableField | null {
  const field = (error as { data?: { field?: unknown } }).data?.field;
  return FORM_FIELDS.find((name) => name === field) ?? null;
}

function SaveTemplateForm({
  templateData,
  defaultName = "",
  defaultCategory = DEFAULT_TEMPLATE_CATEGORY,
  toastOptions,
  onDone,
}: Omit<SaveTemplateDialogProps, "open" | "onOpenChange"> & { onDone: () => void }) {
  const createTemplate = useMutation(api.templates.create);
  // The schema templates.create parses with (convex/lib/forms); its output is what is stored.
  const form = useForm<TemplateForm, unknown, z.output<typeof templateFormSchema>>({
    resolver: zodResolver(templateFormSchema),
    defaultValues: { name: defaultName, description: "", tags: [], category: defaultCategory, isPublic: false },
  });
  const [tagInput, setTagInput] = useState("");
  const saving = form.formState.isSubmitting;
  const tags = form.watch("tags");
  const isPublic = form.watch("isPublic");
  const rootError = form.formState.errors.root?.message;

  function commitTag() {
    const result = addTag(tags, tagInput);
    form.setValue("tags", result.tags);
    if (result.error) {
      form.setError("tags", { message: result.error });
      return;
    }
    form.clearErrors("tags");
    setTagInput("");
  }

  function onTagKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter") return;
    // Enter adds the tag rather than submitting the form.
    event.preventDefault();
    commitTag();
  }

  async function submit(values: z.output<typeof templateFormSchema>) {
    // What is saved needs a persona and a topic, within the limits the server checks: say
    // which part is missing or too large before sending it.
    const contentProblem =
      problemsOf(templateContentSchema, templateData)[0] ?? templateDataLimitProblems(templateData)[0];
    if (contentProblem) {
      form.setError("root", { message: contentProblem.message });
      return;
    }
    try {
      await createTemplate({ ...values, templateData });
      toast.success(`Template "${values.name}" saved`, toastOptions);
      onDone();
    } catch (caught) {
      // The server's own rule messages are worth showing (under their field when it is one of
      // the form's); anything else gets the spec's text.
      const data = appErrorData(caught);
      if (data?.code !== "INVALID_INPUT") form.setError("root", { message: SAVE_TEMPLATE_FAILED });
      else form.setError(refusedField(caught) ?? "root", { message: data.message });
    }
  }

  return (
    <Form {...form}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-4">
        <DialogHeading
          title="Save as Template"
          description="Saves the personas, topics, prompts, evaluation settings and selected models for reuse."
        />

        <TextField
          control={form.control}
          name="name"
          label="Template Name"
          maxLength={TEMPLATE_LIMITS.maxNameLength}
          placeholder="e.g., Support replies - tone check"
          announceError
        />

        <FormField
          control={form.control}
          name="description"
          render={({ field }) => (
            <FormItem>
              <div className="flex items-center justify-between">
                <FormLabel>Description</FormLabel>
                <span
                  className="text-xs text-muted-foreground tabular-nums"
                  data-testid="description-counter"
                  aria-live="polite"
                >
                  {field.value.length}/{TEMPLATE_LIMITS.maxDescriptionLength}
                </span>
              </div>
              <FormControl>
                <Textarea
                  rows={3}
                  maxLength={TEMPLATE_LIMITS.maxDescriptionLength}
                  placeholder="What this template evaluates and when to use it"
                  {...field}
                />
              </FormControl>
              <FormMessage role="alert" />
            </FormItem>
          )}
        />

        <FormField
          control={form.control}
          name="tags"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Tags</FormLabel>
              <div className="flex gap-2">
                <FormControl>
                  <Input
                    value={tagInput}
                    placeholder="Type a tag and press Enter"
                    onChange={(event) => {
                      setTagInput(event.target.value);
                      form.clearErrors("tags");
                    }}
                    onKeyDown={onTagKeyDown}
                  />
                </FormControl>
                <Button type="button" variant="outline" onClick={commitTag} aria-label="Add tag">
                  <PlusIcon /> Add
                </Button>
              </div>
              <FormDescription className="text-xs">
                Up to {TEMPLATE_LIMITS.maxTags} tags, {TEMPLATE_LIMITS.maxTagLength} characters each (
                {field.value.length}/{TEMPLATE_LIMITS.maxTags}).
              </FormDescription>
              <FormMessage role="alert" />
              {field.value.length > 0 && (
                <ul className="flex flex-wrap gap-1" aria-label="Template tags">
                  {field.value.map((tag) => (
                    <li key={tag}>
                      <Badge variant="secondary" className="gap-1 pr-1">
                        {tag}
                        <button
                          type="button"
                          className="rounded-sm opacity-70 hover:opacity-100"
                          aria-label={`Remove tag ${tag}`}
                          onClick={() => field.onChange(field.value.filter((other) => other !== tag))}
                        >
                          <XIcon className="size-3" />
                        </button>
                      </Badge>
                    </li>
                  ))}
                </ul>
              )}
            </FormItem>
          )}
        />

        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="category"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Category</FormLabel>
                <Select value={field.value} onValueChange={(value) => field.onChange(value as TemplateCategory)}>
                  <FormControl>
                    <SelectTrigger className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    {TEMPLATE_CATEGORIES.map((option) => (
                      <SelectItem key={option} value={option}>
                        {templateCategoryLabel(option)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </FormItem>
            )}
          />
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Visibility</legend>
            <div className="flex gap-4">
              {[false, true].map((value) => (
                <label key={String(value)} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="save-template-visibility"
                    checked={isPublic === value}
                    onChange={() => form.setValue("isPublic", value)}
                    className="accent-primary"
                  />
                  {value ? "Public" : "Private"}
                </label>
              ))}
            </div>
            <p className="text-xs text-muted-foreground">
              {isPublic ? "Everyone can find and apply it in the Public Library." : "Only you can see it."}
            </p>
          </fieldset>
        </div>

        <DialogError>{rootError}</DialogError>

        <DialogFooter>
          <Button type="button" variant="outline" onClick={onDone} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving && <Spinner className="text-current" label="Saving template" />}
            {saving ? "Saving..." : "Save Template"}
          </Button>
        </DialogFooter>
      </form>
    </Form>
  );
}
