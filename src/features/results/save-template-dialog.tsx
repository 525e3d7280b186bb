import { useMutation } from "convex/react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { appErrorData } from "@/lib/errors";

import { api } from "../../../convex/_generated/api";
import {
  DEFAULT_TEMPLATE_CATEGORY,
  isTemplateCategory,
  normalizeTag,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  templateCategoryLabel,
  validateTemplateInput,
  type TemplateCategory,
} from "../../../convex/lib/templates";
import type { TemplateData, TestConfiguration } from "../../../convex/validators";

export const SAVE_TEMPLATE_FAILED = "Failed to save template. Please try again.";

/** A test's configuration as a template: prompts, personas, topics, evaluation and its models as suggestions. */
export function templateDataOf(config: TestConfiguration): TemplateData {
  return {
    userPrompt: config.userPrompt,
    personas: config.personas.map(({ name, description, systemPrompt }) => ({ name, description, systemPrompt })),
    topics: config.topics.map(({ title, description, prompt }) => ({ title, description, prompt })),
    evaluationConfig: {
      rankingPrompt: config.rankingPrompt,
      evaluationCriteria: { ...config.evaluationCriteria },
      scoringParameters: { ...config.scoringParameters },
    },
    suggestedModels: {
      generators: config.generatorModels.map((model) => model.id),
      evaluators: config.evaluatorModels.map((model) => model.id),
    },
    responsesPerTopic: config.responsesPerTopic,
  };
}

/** 'Tone, support ,tone' → ['tone', 'support', 'tone'] (duplicates are reported by the rules). */
export function parseTags(text: string): string[] {
  return text
    .split(",")
    .map(normalizeTag)
    .filter(Boolean);
}

interface SaveTemplateDialogProps {
  configuration: TestConfiguration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Save as Template from the results: this test's configuration, reusable from setup. */
export function SaveTemplateDialog({ configuration, open, onOpenChange }: SaveTemplateDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        {open && <SaveTemplateForm configuration={configuration} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function SaveTemplateForm({ configuration, onDone }: { configuration: TestConfiguration; onDone: () => void }) {
  const createTemplate = useMutation(api.templates.create);
  const [name, setName] = useState(configuration.name);
  const [description, setDescription] = useState("");
  const [tagText, setTagText] = useState("");
  const [category, setCategory] = useState<TemplateCategory>(
    isTemplateCategory(configuration.taskType) ? configuration.taskType : DEFAULT_TEMPLATE_CATEGORY,
  );
  const [isPublic, setIsPublic] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const tags = parseTags(tagText);
    const problem = validateTemplateInput({ name, description, personas: configuration.personas, topics: configuration.topics, tags });
    if (problem) {
      setError(problem);
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
        templateData: templateDataOf(configuration),
      });
      toast.success(`Template "${name.trim()}" saved`);
      onDone();
    } catch (caught) {
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
          Saves this test's prompt, personas, topics, evaluation settings and models, to start new tests from.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="results-template-name">Template Name</Label>
        <Input
          id="results-template-name"
          value={name}
          maxLength={TEMPLATE_LIMITS.maxNameLength}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="results-template-description">Description</Label>
          <span className="text-xs text-muted-foreground tabular-nums">
            {description.length}/{TEMPLATE_LIMITS.maxDescriptionLength}
          </span>
        </div>
        <Textarea
          id="results-template-description"
          rows={3}
          value={description}
          maxLength={TEMPLATE_LIMITS.maxDescriptionLength}
          placeholder="What this template evaluates and when to use it"
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="results-template-tags">Tags</Label>
        <Input
          id="results-template-tags"
          value={tagText}
          placeholder="e.g. tone, support"
          aria-describedby="results-template-tags-hint"
          onChange={(event) => setTagText(event.target.value)}
        />
        <p id="results-template-tags-hint" className="text-xs text-muted-foreground">
          Separated by commas; up to {TEMPLATE_LIMITS.maxTags} tags of {TEMPLATE_LIMITS.maxTagLength} characters.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="results-template-category">Category</Label>
          <Select value={category} onValueChange={(value) => setCategory(value as TemplateCategory)}>
            <SelectTrigger id="results-template-category" className="w-full">
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
        <div className="flex items-end gap-2 pb-2">
          <Checkbox id="results-template-public" checked={isPublic} onCheckedChange={(checked) => setIsPublic(checked === true)} />
          <Label htmlFor="results-template-public">Share in the Public Library</Label>
        </div>
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
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
