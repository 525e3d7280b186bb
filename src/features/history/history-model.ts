// Search and filters of the history list (spec part 2 §2, §5), over the rows already loaded.
import type { FunctionReturnType } from "convex/server";

import { taskTypeLabel } from "@/lib/test-labels";

import type { api } from "../../../convex/_generated/api";

export type HistoryData = FunctionReturnType<typeof api.history.list>;
export type HistoryRow = HistoryData["tests"][number];

export const ALL = "all";

export interface HistoryFilters {
  search: string;
  status: string;
  taskType: string;
}

export const NO_FILTERS: HistoryFilters = { search: "", status: ALL, taskType: ALL };

/** Case-insensitive text over name and task type (as stored or as shown), then the status and task-type filters. */
export function filterTests(rows: readonly HistoryRow[], filters: HistoryFilters): HistoryRow[] {
  const needle = filters.search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (needle === "" ||
        row.name.toLowerCase().includes(needle) ||
        row.taskType.toLowerCase().includes(needle) ||
        taskTypeLabel(row.taskType).toLowerCase().includes(needle)) &&
      (filters.status === ALL || row.status === filters.status) &&
      (filters.taskType === ALL || row.taskType === filters.taskType),
  );
}

/** The distinct values found in the data, sorted, for the filter menus. */
export function optionsOf(rows: readonly HistoryRow[], field: "status" | "taskType"): string[] {
  return [...new Set(rows.map((row) => row[field]))].sort((a, b) => a.localeCompare(b));
}

export function isFiltered(filters: HistoryFilters): boolean {
  return filters.search.trim() !== "" || filters.status !== ALL || filters.taskType !== ALL;
}
