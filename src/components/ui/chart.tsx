// A small shadcn-style wrapper around recharts: a config names each series and gives it a
// colour (exposed as --color-<key> inside the container), and a tooltip in the app's style.
import * as React from "react";
import { ResponsiveContainer, Tooltip } from "recharts";

import { cn } from "@/lib/utils";

export type ChartConfig = Record<string, { label: string; color: string }>;

const ChartContext = React.createContext<ChartConfig | null>(null);

// Drawn at this size until the container has been measured (and where it cannot be, as in tests).
const INITIAL_SIZE = { width: 480, height: 270 };

export function useChartConfig(): ChartConfig {
  const config = React.useContext(ChartContext);
  if (!config) throw new Error("useChartConfig must be used inside <ChartContainer>.");
  return config;
}

interface ChartContainerProps extends Omit<React.ComponentProps<"div">, "children"> {
  config: ChartConfig;
  /** One recharts chart. */
  children: React.ReactElement;
  /** What the chart shows, for screen readers (charts themselves are not readable). */
  label: string;
}

export function ChartContainer({ config, children, label, className, style, ...props }: ChartContainerProps) {
  const colors = Object.fromEntries(Object.entries(config).map(([key, entry]) => [`--color-${key}`, entry.color]));
  return (
    <ChartContext.Provider value={config}>
      <div
        data-slot="chart"
        role="img"
        aria-label={label}
        className={cn(
          "aspect-video w-full text-xs [&_.recharts-cartesian-axis-tick_text]:fill-muted-foreground [&_.recharts-cartesian-grid_line]:stroke-border/60 [&_.recharts-surface]:outline-hidden",
          className,
        )}
        style={{ ...colors, ...style } as React.CSSProperties}
        {...props}
      >
        <ResponsiveContainer width="100%" height="100%" minWidth={0} initialDimension={INITIAL_SIZE}>
          {children}
        </ResponsiveContainer>
      </div>
    </ChartContext.Provider>
  );
}

export const ChartTooltip = Tooltip;

interface TooltipRow {
  name?: string | number;
  value?: unknown;
  dataKey?: unknown;
  color?: string;
  payload?: Record<string, unknown>;
}

interface ChartTooltipContentProps {
  active?: boolean;
  payload?: readonly TooltipRow[];
  label?: unknown;
  /** Title from the hovered datum; defaults to the axis label. */
  labelKey?: string;
  /** Formats one value; receives the series key. */
  formatter?: (value: unknown, key: string, datum: Record<string, unknown>) => React.ReactNode;
}

/** The tooltip body: a title and one line per series, in the series' colour. */
export function ChartTooltipContent({ active, payload, label, labelKey, formatter }: ChartTooltipContentProps) {
  const config = React.useContext(ChartContext) ?? {};
  if (!active || !payload?.length) return null;
  const datum = payload[0]?.payload ?? {};
  const title = labelKey ? datum[labelKey] : label;
  return (
    <div className="grid min-w-32 gap-1.5 rounded-lg border bg-background px-2.5 py-1.5 text-xs shadow-xl">
      {title !== undefined && title !== null && <div className="font-medium">{String(title)}</div>}
      {payload.map((row) => {
        const key = String(row.dataKey ?? row.name ?? "");
        const entry = config[key];
        return (
          <div key={key} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className="size-2.5 shrink-0 rounded-[2px]"
              style={{ background: entry?.color ?? row.color }}
            />
            <span className="text-muted-foreground">{entry?.label ?? row.name}</span>
            <span className="ml-auto font-mono font-medium tabular-nums">
              {formatter ? formatter(row.value, key, datum) : String(row.value)}
            </span>
          </div>
        );
      })}
    </div>
  );
}
