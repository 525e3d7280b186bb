import { BoxesIcon } from "lucide-react";
import { useState } from "react";

import { SearchInput } from "@/components/search-input";
import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardAction, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import {
  BUNDLE_CATEGORIES,
  BUNDLE_CATEGORY_LABELS,
  MODEL_BUNDLES,
  type BundleCategory,
  type ModelBundle,
} from "../../../convex/lib/builtins";
import { formatCents } from "../../../convex/lib/format";
import type { EstimateInput } from "../../../convex/lib/pricing";
import { builtinIcon } from "./builtin-icons";
import { bundlePriceForSetup, bundlePriceRange, priceRangeLabel } from "./price-ranges";
import type { Catalog } from "./use-catalog";

/** The card between sections 4 and 5. */
export function ModelBundlesCard({ onBrowse }: { onBrowse: () => void }) {
  return (
    <Card className="gap-3 border-dashed py-4" data-testid="model-bundles-card">
      <CardHeader className="px-4">
        <CardTitle className="flex items-center gap-2">
          <BoxesIcon aria-hidden="true" className="size-5 text-primary" /> Model Bundles
        </CardTitle>
        <CardDescription>Curated sets of generator and evaluator models, from budget to enterprise.</CardDescription>
        <CardAction>
          <Button type="button" variant="outline" onClick={onBrowse}>
            Browse Bundles
          </Button>
        </CardAction>
      </CardHeader>
    </Card>
  );
}

type BundleFilter = "all" | BundleCategory;

interface ModelBundlesDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  catalog: Catalog;
  onApply: (bundle: ModelBundle) => void;
  /** The setup as it stands, to price each bundle on it once it has a persona and a topic. */
  setup?: EstimateInput;
}

/** The ten bundles by category, with their models and cost ranges; applying one selects its models. */
export function ModelBundlesDialog({ open, onOpenChange, catalog, onApply, setup }: ModelBundlesDialogProps) {
  const [filter, setFilter] = useState<BundleFilter>("all");
  const [search, setSearch] = useState("");
  const needle = search.trim().toLowerCase();
  const bundles = MODEL_BUNDLES.filter(
    (bundle) =>
      (filter === "all" || bundle.category === filter) &&
      (!needle || bundle.name.toLowerCase().includes(needle) || bundle.description.toLowerCase().includes(needle)),
  );
  const modelName = (id: string) => catalog.byId.get(id)?.name ?? id;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Model Bundles</DialogTitle>
          <DialogDescription>
            Applying a bundle replaces your generator and evaluator selections with its models.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="Bundle categories" className="flex flex-wrap gap-2">
            {(["all", ...BUNDLE_CATEGORIES] as const).map((category) => (
              <Button
                key={category}
                type="button"
                size="sm"
                variant={filter === category ? "default" : "outline"}
                aria-pressed={filter === category}
                onClick={() => setFilter(category)}
              >
                {category === "all" ? "All" : BUNDLE_CATEGORY_LABELS[category]}
              </Button>
            ))}
          </div>
          <SearchInput className="min-w-48 flex-1" label="Search bundles" value={search} onSearch={setSearch} />
        </div>
        {bundles.length === 0 ? (
          <EmptyState title="No Bundles Found" description="No bundle matches this filter." />
        ) : (
          <ul className="grid max-h-[60dvh] gap-3 overflow-y-auto pr-1 md:grid-cols-2" aria-label="Bundles">
            {bundles.map((bundle) => {
              const Icon = builtinIcon(bundle.icon);
              const missing = [...bundle.generatorModelIds, ...bundle.evaluatorModelIds].filter(
                (id) => !catalog.ids.has(id),
              ).length;
              const setupCents = catalog.isReady && setup ? bundlePriceForSetup(bundle, setup, catalog.prices) : null;
              return (
                <li
                  key={bundle.id}
                  className="flex flex-col gap-3 rounded-lg border p-4"
                  data-testid={`bundle-${bundle.id}`}
                >
                  <div className="flex items-start gap-3">
                    <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
                    <div className="min-w-0 flex-1">
                      <p className="font-semibold">{bundle.name}</p>
                      <p className="text-sm text-muted-foreground">{bundle.description}</p>
                    </div>
                    <Badge variant="secondary">{bundle.priceRange}</Badge>
                  </div>
                  <div className="grid grid-cols-2 gap-3 text-sm">
                    <div>
                      <p className="text-xs text-muted-foreground">Generators</p>
                      <ul>
                        {bundle.generatorModelIds.map((id) => (
                          <li key={id}>{modelName(id)}</li>
                        ))}
                      </ul>
                    </div>
                    <div>
                      <p className="text-xs text-muted-foreground">Evaluators</p>
                      <ul>
                        {bundle.evaluatorModelIds.map((id) => (
                          <li key={id}>{modelName(id)}</li>
                        ))}
                      </ul>
                    </div>
                  </div>
                  <div className="mt-auto flex items-center justify-between gap-2">
                    <div>
                      <p className="text-xs text-muted-foreground">Estimated cost</p>
                      <p className="font-medium tabular-nums" data-testid="bundle-cost-range">
                        {priceRangeLabel(bundlePriceRange(bundle, catalog.prices), catalog.isReady)}
                      </p>
                      <p className="text-xs text-muted-foreground">
                        on the built-in templates, 1-3 responses per topic
                      </p>
                      {setupCents !== null && (
                        <p className="text-xs" data-testid="bundle-setup-price">
                          With your setup: <span className="font-medium tabular-nums">{formatCents(setupCents)}</span>
                        </p>
                      )}
                      {missing > 0 && (
                        <p className="text-xs text-muted-foreground">
                          {missing} of its models {missing === 1 ? "is" : "are"} not in the current catalog.
                        </p>
                      )}
                    </div>
                    <Button type="button" size="sm" aria-label={`Apply ${bundle.name}`} onClick={() => onApply(bundle)}>
                      Apply Bundle
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
