import { formatCents, formatDollars } from "../../convex/lib/format";

import { cn } from "@/lib/utils";

type MoneyProps =
  /** Integer cents, as prices and payments are stored: always 2 decimals. */
  | { cents: number; dollars?: never; decimals?: never; className?: string }
  /** Dollars as floats, as per-call model costs are stored (6 decimals per answer, 4 per test). */
  | { dollars: number; decimals?: number; cents?: never; className?: string };

/** An amount of money as '$X.XX', in tabular figures so columns line up. */
export function Money(props: MoneyProps) {
  const text = props.cents !== undefined ? formatCents(props.cents) : formatDollars(props.dollars, props.decimals);
  return <span className={cn("tabular-nums", props.className)}>{text}</span>;
}
