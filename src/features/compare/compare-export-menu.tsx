import { DownloadIcon } from "lucide-react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { CSV_TYPE, downloadFile } from "@/lib/download";

import { buildCompareCsv, buildCompareJson, compareFileName } from "./compare-export";
import type { Comparison } from "./compare-page";

/** Export the comparison as shown: CSV (one row per shared model) or JSON (all its figures). */
export function CompareExportMenu({ comparison }: { comparison: Comparison }) {
  function run(format: "csv" | "json") {
    if (format === "csv") downloadFile(compareFileName(comparison, "csv"), buildCompareCsv(comparison), CSV_TYPE);
    else downloadFile(compareFileName(comparison, "json"), buildCompareJson(comparison), "application/json");
    toast.success(`Exported ${format.toUpperCase()}`);
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline">
          <DownloadIcon />
          Export
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => run("csv")}>Export as CSV</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => run("json")}>Export as JSON</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
