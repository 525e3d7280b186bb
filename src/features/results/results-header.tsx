import { Link } from "@tanstack/react-router";
import { ActivityIcon, ArrowLeftIcon, BookmarkPlusIcon, RotateCcwIcon, Share2Icon, Trash2Icon } from "lucide-react";
import { useState, type ReactNode } from "react";

import { ViewerAvatars } from "@/components/presence";
import { SaveTemplateDialog } from "@/components/save-template-dialog";
import { TestTitle } from "@/components/status-badge";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

import { DeleteTestDialog } from "@/components/delete-test-dialog";
import { ExportMenu } from "./export-menu";
import { isLive, type ResultsData } from "@/components/results/results-model";
import { countsLabel, taskTypeLabel } from "@/lib/test-labels";
import { ShareDialog } from "./share-dialog";
import { templateCategoryOf, templateDataOf } from "./template-data";
// The compare feature's entry points (issue 22 step 2) sit among the page's actions.
import { CompareActions } from "./compare-actions";

interface ResultsHeaderProps {
  results: ResultsData;
  onDeleted: () => void;
  onDeletingChange: (deleting: boolean) => void;
  /** Actions shown first, before the page's own (the blind review's "Review answers"). */
  actions?: ReactNode;
  /** False while the test is being deleted: its presence room is going away with it. */
  showViewers?: boolean;
}

/** Back link, name, task type, counts, status, who else is viewing, and the page's actions. */
export function ResultsHeader({
  results,
  onDeleted,
  onDeletingChange,
  actions,
  showViewers = true,
}: ResultsHeaderProps) {
  const { test, share } = results;
  const [dialog, setDialog] = useState<"share" | "template" | "delete" | null>(null);
  const shared = share?.isActive === true;
  return (
    <header className="space-y-4">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link to="/dashboard/history">
          <ArrowLeftIcon /> Back to History
        </Link>
      </Button>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 space-y-2">
          <TestTitle name={test.name} status={test.status} />
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <Badge variant="outline">{taskTypeLabel(test.taskType)}</Badge>
            <span>{countsLabel(test.configuration)}</span>
            <span aria-hidden="true">·</span>
            <span>
              {test.configuration.evaluatorModels.length} evaluator
              {test.configuration.evaluatorModels.length === 1 ? "" : "s"}
            </span>
          </div>
          {showViewers && <ViewerAvatars room={`test:${test._id}`} page="results" />}
        </div>
        <div className="flex flex-wrap gap-2">
          {actions}
          {isLive(test.status) && (
            <Button asChild variant="outline">
              <Link to="/dashboard/monitor" search={{ testId: test._id }}>
                <ActivityIcon /> Watch Live
              </Link>
            </Button>
          )}
          <Button variant={shared ? "secondary" : "outline"} onClick={() => setDialog("share")}>
            <Share2Icon /> {shared ? "Manage Sharing" : "Share Results"}
          </Button>
          <Button variant="outline" onClick={() => setDialog("template")}>
            <BookmarkPlusIcon /> Save as Template
          </Button>
          <Button asChild variant="outline">
            <Link to="/dashboard/setup" search={{ rerun: test._id }}>
              <RotateCcwIcon /> Rerun Test
            </Link>
          </Button>
          <CompareActions test={test} />
          <ExportMenu results={results} />
          <Button
            variant="outline"
            className="text-destructive hover:text-destructive"
            onClick={() => setDialog("delete")}
          >
            <Trash2Icon /> Delete
          </Button>
        </div>
      </div>
      <ShareDialog
        testId={test._id}
        share={share}
        open={dialog === "share"}
        onOpenChange={(open) => setDialog(open ? "share" : null)}
      />
      <SaveTemplateDialog
        templateData={templateDataOf(test.configuration)}
        defaultName={test.configuration.name}
        defaultCategory={templateCategoryOf(test.configuration)}
        open={dialog === "template"}
        onOpenChange={(open) => setDialog(open ? "template" : null)}
      />
      <DeleteTestDialog
        test={dialog === "delete" ? test : null}
        onOpenChange={(open) => setDialog(open ? "delete" : null)}
        onDeleted={onDeleted}
        onDeletingChange={onDeletingChange}
      />
    </header>
  );
}
