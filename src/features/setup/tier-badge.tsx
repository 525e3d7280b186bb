import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import type { ModelTier } from "../../../convex/lib/types";
import { TIER_STYLES } from "./model-format";

export function TierBadge({ tier, className }: { tier: ModelTier; className?: string }) {
  return (
    <Badge data-testid="tier-badge" className={cn(TIER_STYLES[tier] ?? TIER_STYLES.FREE, className)}>
      {tier}
    </Badge>
  );
}
