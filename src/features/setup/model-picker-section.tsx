import { InfoIcon, XIcon } from "lucide-react";
import { useDeferredValue, useMemo, useState } from "react";

import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/empty-state";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";
import { formatCents } from "../../../convex/lib/format";
import { LIMITS, modelPriceCents } from "../../../convex/lib/pricing";
import type { CatalogModel } from "../../../convex/lib/types";
import type { TestConfiguration } from "../../../convex/validators";
import { formatPerMillion } from "./model-format";
import { ModelInfoDialog } from "./model-info-dialog";
import { SetupSection } from "./setup-section";
import type { ModelRole } from "./setup-state";
import { TierBadge } from "./tier-badge";
import type { Catalog } from "./use-catalog";

interface ModelPickerSectionProps {
  role: ModelRole;
  catalog: Catalog;
  selectedIds: readonly string[];
  /** The current configuration, to show what each model adds to the price. */
  configuration: TestConfiguration;
  onToggle: (id: string) => void;
  onClear: () => void;
  /** The section's number where it is not the setup page's (the "Judge again" dialog). */
  number?: number;
}

const copy = {
  generator: {
    id: "generators",
    number: 5,
    title: "Generator Models",
    description: "These models write the responses for every persona and topic.",
    max: LIMITS.maxGeneratorModels,
  },
  evaluator: {
    id: "evaluators",
    number: 6,
    title: "Evaluator Models",
    description: "These models judge the responses. Pick models other than your generators for an impartial jury.",
    max: LIMITS.maxEvaluatorModels,
  },
} as const;

/** Sections 5 and 6: search the catalog, tick models, see tiers, prices and details. */
export function ModelPickerSection({
  role,
  catalog,
  selectedIds,
  configuration,
  onToggle,
  onClear,
  number,
}: ModelPickerSectionProps) {
  const [search, setSearch] = useState("");
  const [info, setInfo] = useState<CatalogModel | null>(null);
  const text = copy[role];
  const selected = new Set(selectedIds);
  const full = selectedIds.length >= text.max;
  const models = catalog.models;
  const needle = search.trim().toLowerCase();
  const shown = useMemo(
    () =>
      (models ?? []).filter(
        (model) =>
          !needle ||
          model.name.toLowerCase().includes(needle) ||
          model.id.toLowerCase().includes(needle) ||
          model.provider.toLowerCase().includes(needle),
      ),
    [models, needle],
  );
  // One estimate per listed model: let typing elsewhere on the page stay ahead of it.
  const deferredConfiguration = useDeferredValue(configuration);
  const shares = useMemo(
    () =>
      new Map(shown.map((model) => [model.id, modelPriceCents(deferredConfiguration, catalog.prices, model.id, role)])),
    [shown, deferredConfiguration, catalog.prices, role],
  );
  const singular = role === "generator" ? "generator" : "evaluator";

  return (
    <SetupSection id={text.id} number={number ?? text.number} title={text.title} description={text.description}>
      <div className="flex flex-wrap items-center gap-3">
        <SearchInput
          className="min-w-56 flex-1"
          label={`Search ${singular} models`}
          placeholder="Search by name, id or provider..."
          value={search}
          onSearch={setSearch}
        />
        <span className="text-sm text-muted-foreground" data-testid={`${singular}-selected-count`}>
          {selectedIds.length} of {text.max} selected
        </span>
        {selectedIds.length > 0 && (
          <Button type="button" variant="ghost" size="sm" onClick={onClear} aria-label={`Clear ${singular} models`}>
            <XIcon /> Clear
          </Button>
        )}
      </div>

      {selectedIds.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={`Selected ${singular} models`}>
          {selectedIds.map((id) => (
            <li
              key={id}
              className="inline-flex items-center gap-1 rounded-full border bg-muted/50 py-0.5 pr-1 pl-3 text-sm"
            >
              {catalog.byId.get(id)?.name ?? id}
              <Button
                type="button"
                variant="ghost"
                size="icon-sm"
                className="size-6 rounded-full"
                aria-label={`Remove ${singular} ${catalog.byId.get(id)?.name ?? id}`}
                onClick={() => onToggle(id)}
              >
                <XIcon />
              </Button>
            </li>
          ))}
        </ul>
      )}

      {catalog.isLoading ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading models">
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} className="h-14 w-full" />
          ))}
        </div>
      ) : (models ?? []).length === 0 ? (
        catalog.isRefreshing ? (
          <div className="flex items-center justify-center gap-2 rounded-lg border border-dashed py-10 text-sm text-muted-foreground">
            <Spinner label="Refreshing the model list" /> Fetching the latest models from the gateway...
          </div>
        ) : (
          <EmptyState
            title="No models available"
            description="The model list is empty right now. It refreshes automatically; please try again in a few minutes."
          />
        )
      ) : shown.length === 0 ? (
        <EmptyState title="No models match your search" description={`Nothing matches "${search.trim()}".`} />
      ) : (
        <ul className="max-h-[28rem] divide-y overflow-y-auto rounded-lg border" aria-label={`${text.title}`}>
          {shown.map((model) => {
            const checked = selected.has(model.id);
            const checkboxId = `${singular}-model-${model.id}`;
            const share = shares.get(model.id) ?? 0;
            return (
              <li key={model.id} className={cn("flex items-center gap-3 px-3 py-2.5", checked && "bg-primary/5")}>
                <Checkbox
                  id={checkboxId}
                  aria-label={model.name}
                  checked={checked}
                  disabled={!checked && full}
                  onCheckedChange={() => onToggle(model.id)}
                />
                <label htmlFor={checkboxId} className="min-w-0 flex-1 cursor-pointer">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium break-words">{model.name}</span>
                    <TierBadge tier={model.tier} />
                  </span>
                  <span className="block text-xs text-muted-foreground">
                    {model.provider} · <span className="tabular-nums">{formatPerMillion(model.pricing.prompt)}</span> in
                    / <span className="tabular-nums">{formatPerMillion(model.pricing.completion)}</span> out per 1M
                    tokens
                  </span>
                </label>
                {share > 0 && (
                  <span
                    className="hidden text-xs text-muted-foreground tabular-nums sm:inline"
                    title="What this model adds to the price"
                  >
                    +{formatCents(share)}
                  </span>
                )}
                <Button
                  type="button"
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Model info for ${model.name}`}
                  onClick={() => setInfo(model)}
                >
                  <InfoIcon />
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {full && (
        <p className="text-xs text-muted-foreground">
          You can select up to {text.max} {singular} models.
        </p>
      )}
      <ModelInfoDialog model={info} onOpenChange={(open) => !open && setInfo(null)} />
    </SetupSection>
  );
}
