import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { CatalogModel } from "../../../convex/lib/types";
import { formatContextLength, formatPerMillion } from "./model-format";
import { TierBadge } from "./tier-badge";

interface ModelInfoDialogProps {
  model: CatalogModel | null;
  onOpenChange: (open: boolean) => void;
}

/** Name, tier, id, provider, context length and description of one catalog model. */
export function ModelInfoDialog({ model, onOpenChange }: ModelInfoDialogProps) {
  return (
    <Dialog open={model !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        {model && (
          <>
            <DialogHeader>
              <DialogTitle className="flex flex-wrap items-center gap-2 pr-6">
                {model.name}
                <TierBadge tier={model.tier} />
              </DialogTitle>
              <DialogDescription>Model details from the gateway's catalog.</DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Model ID</dt>
              <dd className="font-mono break-all">{model.id}</dd>
              <dt className="text-muted-foreground">Provider</dt>
              <dd>{model.provider}</dd>
              <dt className="text-muted-foreground">Tier</dt>
              <dd>{model.tier}</dd>
              <dt className="text-muted-foreground">Context Length</dt>
              <dd>{formatContextLength(model.contextLength)}</dd>
              <dt className="text-muted-foreground">Input Price</dt>
              <dd className="tabular-nums">{formatPerMillion(model.pricing.prompt)} per 1M tokens</dd>
              <dt className="text-muted-foreground">Output Price</dt>
              <dd className="tabular-nums">{formatPerMillion(model.pricing.completion)} per 1M tokens</dd>
            </dl>
            <div className="space-y-1">
              <h3 className="text-sm font-medium">Description</h3>
              <p className="max-h-60 overflow-y-auto text-sm break-words whitespace-pre-wrap text-muted-foreground">
                {model.description.trim() || "No description provided."}
              </p>
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
