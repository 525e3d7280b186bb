// The results' tables of figures (the verdict's comparison, the jury's judges, means, costs,
// ratings and agreement per unit, the team review's judges) in one markup, so they read and
// behave alike: the first column names the row (a model, a judge) and stays first, figures are
// right-aligned with digits of equal width, and a wide table scrolls inside its own box (which
// takes the keyboard's focus to scroll) instead of widening the page.
import type { ComponentProps, ReactNode } from "react";

import { cn } from "@/lib/utils";

export interface ResultsColumn<Row> {
  /** Tells the columns apart (React's key); the header's words when they are a string. */
  id: string;
  header?: ReactNode;
  /** What the figure means, on hovering its header. */
  help?: string;
  /** A figure: right-aligned, tabular digits. */
  numeric?: boolean;
  cell: (row: Row) => ReactNode;
  /** Classes of this column's body cells. */
  className?: string;
}

type RowAttributes = Omit<ComponentProps<"tr">, "children"> & { "data-testid"?: string };

/**
 * "boxed": a bordered box that scrolls sideways; "tall": the same, at most 18rem tall with the
 * header kept in view (long lists); "plain": no border, for a table beside a chart.
 */
type Frame = "boxed" | "tall" | "plain";

const FRAME: Record<Frame, string> = {
  boxed: "overflow-x-auto rounded-lg border",
  tall: "max-h-72 overflow-auto rounded-lg border",
  plain: "overflow-x-auto",
};

interface ResultsTableProps<Row> {
  /** The table's accessible name. */
  label: string;
  /** The first names the row: a row header. */
  columns: readonly ResultsColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** A row's own attributes: its test id, `aria-current`, an extra class. */
  rowProps?: (row: Row) => RowAttributes;
  /** Rows under the body, as `ResultsFooterRow`s (a total). */
  footer?: ReactNode;
  frame?: Frame;
  /** Tighter rows, for the jury's longer tables. */
  dense?: boolean;
  /** Cells' tops aligned, for rows whose cells run to several lines. */
  alignTop?: boolean;
  "data-testid"?: string;
}

export function ResultsTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  footer,
  frame = "boxed",
  dense = false,
  alignTop = false,
  "data-testid": testId,
}: ResultsTableProps<Row>) {
  const cellPadding = cn(frame === "plain" ? "px-0" : "px-3", dense ? "py-1.5" : "py-2");
  const [key, ...figures] = columns;
  return (
    <div tabIndex={0} className={FRAME[frame]} data-testid={testId}>
      <table className="w-full text-sm" aria-label={label}>
        <thead className={cn("text-left text-muted-foreground", frame === "tall" && "sticky top-0 bg-card")}>
          <tr>
            {columns.map((column) => (
              <th
                key={column.id}
                scope="col"
                title={column.help}
                className={cn(
                  cellPadding,
                  "py-2 font-medium",
                  frame === "plain" && "py-1.5",
                  column.numeric && "text-right",
                )}
              >
                {column.header ?? column.id}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const { className, ...attributes } = rowProps?.(row) ?? {};
            return (
              <tr key={rowKey(row)} className={cn("border-t", alignTop && "align-top", className)} {...attributes}>
                {key && (
                  <th scope="row" className={cn(cellPadding, "text-left font-medium", key.className)}>
                    {key.cell(row)}
                  </th>
                )}
                {figures.map((column) => (
                  <td
                    key={column.id}
                    className={cn(cellPadding, column.numeric && "text-right tabular-nums", column.className)}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
        {footer && <tfoot>{footer}</tfoot>}
      </table>
    </div>
  );
}

/** A row under a results table's body: its name, then one figure per column. */
export function ResultsFooterRow({
  name,
  figures,
  dense = false,
  "data-testid": testId,
}: {
  name: string;
  figures: readonly string[];
  dense?: boolean;
  "data-testid"?: string;
}) {
  const cellPadding = cn("px-3", dense ? "py-1.5" : "py-2");
  return (
    <tr className="border-t font-semibold" data-testid={testId}>
      <th scope="row" className={cn(cellPadding, "text-left")}>
        {name}
      </th>
      {figures.map((figure, index) => (
        <td key={index} className={cn(cellPadding, "text-right tabular-nums")}>
          {figure}
        </td>
      ))}
    </tr>
  );
}
