import { useMutation } from "convex/react";
import { PlusIcon, XIcon } from "lucide-react";
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { toast, type ExternalToast } from "sonner";

import { Spinner } from "@/components/spinner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { appErrorData } from "@/lib/errors";
import { api } from "../../convex/_generated/api";
import {
  DEFAULT_TEMPLATE_CATEGORY,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  addTag,
  templateCategoryLabel,
  validateTemplateInput,
  type TemplateCategory,
} from "../../convex/lib/templates";
import { templateDataLimitProblems } from "../../convex/lib/limits";
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

function SaveTemplateForm({
  templateData,
  defaultName = "",
  defaultCategory = DEFAULT_TEMPLATE_CATEGORY,
  toastOptions,
  onDone,
}: Omit<SaveTemplateDialogProps, "open" | "onOpenChange"> & { onDone: () => void }) {
  const createTemplate = useMutation(api.templates.create);
  const [name, setName] = useState(defaultName);
  const [description, setDescription] = useState("");
  const [tags, setTags] = useState<string[]>([]);
  const [tagInput, setTagInput] = useState("");
  const [tagError, setTagError] = useState<string | null>(null);
  const [category, setCategory] = useState<TemplateCategory>(defaultCategory);
  const [isPublic, setIsPublic] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  function commitTag() {
    const result = addTag(tags, tagInput);
    setTags(result.tags);
    setTagError(result.error ?? null);
    if (!result.error) setTagInput("");
  }

  function onTagKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter") return;
    // Enter adds the tag rather than submitting the form.
    event.preventDefault();
    commitTag();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = validateTemplateInput({
      name,
      description,
      personas: templateData.personas,
      topics: templateData.topics,
      tags,
    });
    if (problem) {
      setError(problem);
      return;
    }
    // The same limits the server checks: say which part is too large before sending it.
    const overLimit = templateDataLimitProblems(templateData)[0];
    if (overLimit) {
      setError(overLimit.message);
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await createTemplate({
        name: name.trim(),
        description: description.trim(),
        category,
        isPublic,
        tags,
        templateData,
      });
      toast.success(`Template "${name.trim()}" saved`, toastOptions);
      onDone();
    } catch (caught) {
      // The server's own rule messages are worth showing; anything else gets the spec's text.
      const data = appErrorData(caught);
      setError(data?.code === "INVALID_INPUT" ? data.message : SAVE_TEMPLATE_FAILED);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Save as Template</DialogTitle>
        <DialogDescription>
          Saves the personas, topics, prompts, evaluation settings and selected models for reuse.
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-2">
        <Label htmlFor="save-template-name">Template Name</Label>
        <Input
          id="save-template-name"
          value={name}
          maxLength={TEMPLATE_LIMITS.maxNameLength}
          placeholder="e.g., Support replies - tone check"
          onChange={(event) => setName(event.target.value)}
        />
      </div>

      <div className="grid gap-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="save-template-description">Description</Label>
          <span
            className="text-xs text-muted-foreground tabular-nums"
            data-testid="description-counter"
            aria-live="polite"
          >
            {description.length}/{TEMPLATE_LIMITS.maxDescriptionLength}
          </span>
        </div>
        <Textarea
          id="save-template-description"
          rows={3}
          value={description}
          maxLength={TEMPLATE_LIMITS.maxDescriptionLength}
          placeholder="What this template evaluates and when to use it"
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>

      <div className="grid gap-2">
        <Label htmlFor="save-template-tag">Tags</Label>
        <div className="flex gap-2">
          <Input
            id="save-template-tag"
            value={tagInput}
            placeholder="Type a tag and press Enter"
            aria-describedby="save-template-tag-hint"
            onChange={(event) => {
              setTagInput(event.target.value);
              setTagError(null);
            }}
            onKeyDown={onTagKeyDown}
          />
          <Button type="button" variant="outline" onClick={commitTag} aria-label="Add tag">
            <PlusIcon /> Add
          </Button>
        </div>
        <p id="save-template-tag-hint" className="text-xs text-muted-foreground">
          Up to {TEMPLATE_LIMITS.maxTags} tags, {TEMPLATE_LIMITS.maxTagLength} characters each ({tags.length}/
          {TEMPLATE_LIMITS.maxTags}).
        </p>
        {tagError && (
          <p role="alert" className="text-sm text-destructive">
            {tagError}
          </p>
        )}
        {tags.length > 0 && (
          <ul className="flex flex-wrap gap-1" aria-label="Template tags">
            {tags.map((tag) => (
              <li key={tag}>
                <Badge variant="secondary" className="gap-1 pr-1">
                  {tag}
                  <button
                    type="button"
                    className="rounded-sm opacity-70 hover:opacity-100"
                    aria-label={`Remove tag ${tag}`}
                    onClick={() => setTags(tags.filter((other) => other !== tag))}
                  >
                    <XIcon className="size-3" />
                  </button>
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="save-template-category">Category</Label>
          <Select value={category} onValueChange={(value) => setCategory(value as TemplateCategory)}>
            <SelectTrigger id="save-template-category" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {TEMPLATE_CATEGORIES.map((option) => (
                <SelectItem key={option} value={option}>
                  {templateCategoryLabel(option)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Visibility</legend>
          <div className="flex gap-4">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="save-template-visibility"
                checked={!isPublic}
                onChange={() => setIsPublic(false)}
                className="accent-primary"
              />
              Private
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="save-template-visibility"
                checked={isPublic}
                onChange={() => setIsPublic(true)}
                className="accent-primary"
              />
              Public
            </label>
          </div>
          <p className="text-xs text-muted-foreground">
            {isPublic ? "Everyone can find and apply it in the Public Library." : "Only you can see it."}
          </p>
        </fieldset>
      </div>

      {error && (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive"
        >
          {error}
        </p>
      )}

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
  );
}
