import { useConvex } from "convex/react";
import { DownloadIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { CSV_TYPE, downloadFile } from "@/lib/download";
import { errorMessage } from "@/lib/errors";

import { api } from "../../../convex/_generated/api";
import {
  buildCsv,
  buildJson,
  collectPages,
  EXPORT_EVALUATIONS_PAGE,
  EXPORT_RESPONSES_PAGE,
  exportFileName,
} from "./export";
import { settleExportOf } from "./settle-export";
import type { ResultsData } from "@/components/results/results-model";

/** Export as CSV (one row per response) or JSON (configuration and results), page by page. */
export function ExportMenu({ results }: { results: ResultsData }) {
  const convex = useConvex();
  const [busy, setBusy] = useState(false);
  const testId = results.test._id;

  const responses = () =>
    collectPages((cursor) =>
      convex.query(api.results.exportResponses, {
        testId,
        paginationOpts: { numItems: EXPORT_RESPONSES_PAGE, cursor },
      }),
    );

  const evaluations = () =>
    collectPages((cursor) =>
      convex.query(api.results.exportEvaluations, {
        testId,
        paginationOpts: { numItems: EXPORT_EVALUATIONS_PAGE, cursor },
      }),
    );

  async function run(format: "csv" | "json") {
    setBusy(true);
    try {
      // The jury's figures as last computed (one stored row), beside every answer and judge score.
      const stats = (await convex.query(api.results.juryStats, { testId }))?.stats ?? null;
      // A test set to stop when settled: why it stopped and its pairs' drawn order, on every row.
      const configuration = results.test.configuration;
      const settle =
        configuration.stopWhenSettled === undefined
          ? null
          : settleExportOf(configuration, await convex.query(api.settle.status, { testId }));
      if (format === "csv") {
        downloadFile(
          exportFileName(results.test.name, "csv"),
          buildCsv(await responses(), await evaluations(), stats, configuration.checks ?? [], settle),
          CSV_TYPE,
        );
      } else {
        const rows = await responses();
        downloadFile(
          exportFileName(results.test.name, "json"),
          buildJson(results, rows, await evaluations(), stats, settle),
          "application/json",
        );
      }
      toast.success(`Exported ${format.toUpperCase()}`);
    } catch (error) {
      toast.error(errorMessage(error, "Export failed. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" disabled={busy}>
          {busy ? <Spinner className="text-current" label="Exporting" /> : <DownloadIcon />}
          {busy ? "Exporting..." : "Export"}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => void run("csv")}>Export as CSV</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void run("json")}>Export as JSON</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
