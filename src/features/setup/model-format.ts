import { formatDollars } from "../../../convex/lib/format";
import type { ModelTier } from "../../../convex/lib/types";

/** A per-token price as dollars per million tokens: '$0.15', or '$0.0375' below a cent. */
export function formatPerMillion(pricePerToken: number): string {
  const perMillion = pricePerToken * 1e6;
  if (perMillion > 0 && perMillion < 0.01) return formatDollars(perMillion, 4);
  return formatDollars(perMillion, 2);
}

export function formatContextLength(tokens: number): string {
  return `${tokens.toLocaleString("en-US")} tokens`;
}

export const TIER_STYLES: Readonly<Record<ModelTier, string>> = {
  FREE: "border-transparent bg-muted text-muted-foreground",
  BUDGET: "border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  STANDARD: "border-transparent bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
  PREMIUM: "border-transparent bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300",
  ENTERPRISE: "border-transparent bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
  FLAGSHIP: "border-transparent bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300",
};
