import { CheckIcon, LibraryIcon, UsersIcon, MessageSquareTextIcon } from "lucide-react";
import { useState } from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { BUILTIN_TEMPLATES, type BuiltinTemplate } from "../../../convex/lib/builtins";
import {
  COMPLEXITY_LABELS,
  TEMPLATE_CATEGORY_FILTERS,
  templateCategoryLabel,
  type TemplateCategoryFilter,
} from "../../../convex/lib/templates";
import { builtinIcon } from "./builtin-icons";
import { priceRangeLabel, templatePriceRange } from "./price-ranges";
import { SetupSection } from "./setup-section";
import type { Catalog } from "./use-catalog";

interface TemplateSectionProps {
  catalog: Catalog;
  onApply: (template: BuiltinTemplate) => void;
  /** The Custom category: the sections show without a template. */
  onChooseCustom: () => void;
  onOpenLibrary: () => void;
}

const SUGGESTIONS_SHOWN = 3;

/** Section 1: the built-in templates by category, a detail panel, and Apply. */
export function TemplateSection({ catalog, onApply, onChooseCustom, onOpenLibrary }: TemplateSectionProps) {
  const [category, setCategory] = useState<TemplateCategoryFilter>("all");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const templates = BUILTIN_TEMPLATES.filter((template) => category === "all" || template.category === category);
  const selected = templates.find((template) => template.id === selectedId) ?? null;

  function chooseCategory(next: TemplateCategoryFilter) {
    setCategory(next);
    if (next === "general") onChooseCustom();
  }

  return (
    <SetupSection
      id="templates"
      number={1}
      title="Choose Template"
      description="Start from a ready-made evaluation, or choose Custom to build your own."
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div role="group" aria-label="Template categories" className="flex flex-wrap gap-2">
          {TEMPLATE_CATEGORY_FILTERS.map((filter) => (
            <Button
              key={filter}
              type="button"
              size="sm"
              variant={category === filter ? "default" : "outline"}
              aria-pressed={category === filter}
              onClick={() => chooseCategory(filter)}
            >
              {templateCategoryLabel(filter)}
            </Button>
          ))}
        </div>
        <Button type="button" variant="outline" size="sm" onClick={onOpenLibrary}>
          <LibraryIcon /> Template Library
        </Button>
      </div>

      {category === "general" && (
        <p className="rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground" data-testid="custom-mode-note">
          Custom: fill in the sections below yourself, or start from the Custom Evaluation Setup template.
        </p>
      )}

      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Templates">
        {templates.map((template) => {
          const Icon = builtinIcon(template.icon);
          const isSelected = template.id === selectedId;
          return (
            <li key={template.id}>
              <button
                type="button"
                aria-pressed={isSelected}
                data-testid={`template-card-${template.id}`}
                onClick={() => setSelectedId(isSelected ? null : template.id)}
                className={cn(
                  "flex h-full w-full flex-col gap-3 rounded-lg border p-4 text-left transition-colors outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50",
                  isSelected && "border-primary bg-primary/5 ring-1 ring-primary",
                )}
              >
                <div className="flex items-start gap-3">
                  <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
                    <Icon aria-hidden="true" className="size-5" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="leading-tight font-semibold">{template.name}</p>
                    <p className="text-xs text-muted-foreground">{templateCategoryLabel(template.category)}</p>
                  </div>
                  {isSelected && <CheckIcon aria-hidden="true" className="size-5 text-primary" />}
                </div>
                <div className="flex flex-wrap gap-2 text-xs text-muted-foreground">
                  <span className="inline-flex items-center gap-1">
                    <UsersIcon aria-hidden="true" className="size-3.5" />
                    {countLabel(template.personas.length, "persona")}
                  </span>
                  <span className="inline-flex items-center gap-1">
                    <MessageSquareTextIcon aria-hidden="true" className="size-3.5" />
                    {countLabel(template.topics.length, "topic")}
                  </span>
                </div>
                <div className="mt-auto flex items-center justify-between gap-2">
                  <Badge variant="secondary">{COMPLEXITY_LABELS[template.pricing.complexity]}</Badge>
                  <span className="text-sm font-medium tabular-nums" data-testid="template-cost-range">
                    {priceRangeLabel(templatePriceRange(template, catalog.prices), catalog.isReady)}
                  </span>
                </div>
              </button>
            </li>
          );
        })}
      </ul>

      {selected && <TemplateDetail template={selected} catalog={catalog} onApply={() => onApply(selected)} />}
    </SetupSection>
  );
}

function countLabel(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function TemplateDetail({
  template,
  catalog,
  onApply,
}: {
  template: BuiltinTemplate;
  catalog: Catalog;
  onApply: () => void;
}) {
  const modelName = (id: string) => catalog.byId.get(id)?.name ?? id;
  return (
    <div
      className="space-y-4 rounded-lg border bg-muted/30 p-4"
      data-testid="template-detail"
      aria-labelledby="template-detail-heading"
      role="region"
    >
      <div className="space-y-1">
        <h3 id="template-detail-heading" className="text-base font-semibold">
          {template.name}
        </h3>
        <p className="text-sm text-muted-foreground">{template.description}</p>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <div>
          <h4 className="mb-1 text-sm font-medium">Personas</h4>
          <ul className="space-y-1 text-sm">
            {template.personas.map((persona) => (
              <li key={persona.name}>
                <span className="font-medium">{persona.name}</span>
                <span className="text-muted-foreground"> - {persona.description}</span>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h4 className="mb-1 text-sm font-medium">Topics</h4>
          <ul className="space-y-1 text-sm">
            {template.topics.map((topic) => (
              <li key={topic.title}>
                <span className="font-medium">{topic.title}</span>
                <span className="text-muted-foreground"> - {topic.description}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="space-y-3">
          <div>
            <h4 className="mb-1 text-sm font-medium">Suggested Models</h4>
            <p className="text-xs text-muted-foreground">Generators</p>
            <ul className="text-sm">
              {template.suggestedModels.generators.slice(0, SUGGESTIONS_SHOWN).map((id) => (
                <li key={id}>{modelName(id)}</li>
              ))}
            </ul>
            <p className="mt-2 text-xs text-muted-foreground">Evaluators</p>
            <ul className="text-sm">
              {template.suggestedModels.evaluators.slice(0, SUGGESTIONS_SHOWN).map((id) => (
                <li key={id}>{modelName(id)}</li>
              ))}
            </ul>
          </div>
          <div>
            <h4 className="text-sm font-medium">Estimated Cost</h4>
            <p className="text-lg font-semibold tabular-nums">
              {priceRangeLabel(templatePriceRange(template, catalog.prices), catalog.isReady)}
            </p>
            <p className="text-xs text-muted-foreground">
              With the suggested models at 1 to 3 responses per topic, ranked or rated, at current model prices. Cost
              varies with the models you select and the number of responses per topic.
            </p>
          </div>
        </div>
      </div>
      <div className="flex justify-end">
        <Button type="button" onClick={onApply}>
          Apply This Template
        </Button>
      </div>
    </div>
  );
}
