// The results' Jury advice (issue 35 item 3): the smaller jury that reaches the same verdict and
// the jury's independent votes, in words (lib/juryAdvice.ts adviceRecordLines), with buttons that
// take the advised jury to the next run (setup, prefilled) or to Judge Again.
import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { GavelIcon, RotateCcwIcon, ScaleIcon } from "lucide-react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { JudgeAgainDialog } from "@/features/rejudge/judge-again-dialog";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { adviceRecordLines } from "../../../convex/lib/juryAdvice";
import type { TestConfiguration } from "../../../convex/validators";

const JURY_ADVICE_TEXTS = {
  title: "Jury advice",
  computing: "Working out which judges the verdict needed…",
  nextRun: "Use this jury for the next run",
  judgeAgain: "Judge Again with this jury",
} as const;

/** The setup page's address for a rerun of the test with only these judges. */
function nextRunSearch(testId: Id<"tests">, judges: readonly string[]) {
  return { rerun: testId, judges: judges.join(",") };
}

/** Shown once the test has ended (the advice is computed from its final figures). */
export function JuryAdviceCard({ testId, configuration }: { testId: Id<"tests">; configuration: TestConfiguration }) {
  const advice = useQuery(api.juryAdvice.forTest, { testId });
  const about = useQuery(api.rejudge.about, { testId });
  const [judgingAgain, setJudgingAgain] = useState(false);
  return (
    <Card data-testid="jury-advice">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <ScaleIcon className="size-5" aria-hidden="true" /> {JURY_ADVICE_TEXTS.title}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {advice === undefined ? (
          <Skeleton className="h-10 w-full" aria-label="Loading jury advice" />
        ) : advice === null ? (
          <p className="text-sm text-muted-foreground" aria-busy="true">
            {JURY_ADVICE_TEXTS.computing}
          </p>
        ) : (
          <>
            <ul className="space-y-1">
              {adviceRecordLines(advice).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            {advice.advised && (
              <div className="flex flex-wrap gap-2">
                <Button asChild variant="outline">
                  <Link to="/dashboard/setup" search={nextRunSearch(testId, advice.advised.judges)}>
                    <RotateCcwIcon /> {JURY_ADVICE_TEXTS.nextRun}
                  </Link>
                </Button>
                {about?.canJudgeAgain && (
                  <Button variant="outline" onClick={() => setJudgingAgain(true)}>
                    <GavelIcon /> {JURY_ADVICE_TEXTS.judgeAgain}
                  </Button>
                )}
              </div>
            )}
          </>
        )}
      </CardContent>
      {judgingAgain && advice?.advised && (
        <JudgeAgainDialog
          testId={testId}
          configuration={configuration}
          initialEvaluatorIds={advice.advised.judges}
          open
          onOpenChange={setJudgingAgain}
        />
      )}
    </Card>
  );
}
