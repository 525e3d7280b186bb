// The results' Jury advice (issue 35 item 3): the smaller jury that reaches the same verdict and
// the jury's independent votes, in words (components/results/jury-advice-view.tsx, shared with
// the shared page), with buttons that take the advised jury to the next run (setup, prefilled) or
// to Judge Again.
import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { GavelIcon, RotateCcwIcon } from "lucide-react";
import { useState } from "react";

import { JuryAdviceView } from "@/components/results/jury-advice-view";
import { Button } from "@/components/ui/button";
import { JudgeAgainDialog } from "@/features/rejudge/judge-again-dialog";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import type { TestConfiguration } from "../../../convex/validators";

const JURY_ADVICE_TEXTS = {
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
    <JuryAdviceView
      advice={advice}
      footer={
        judgingAgain &&
        advice?.advised && (
          <JudgeAgainDialog
            testId={testId}
            configuration={configuration}
            initialEvaluatorIds={advice.advised.judges}
            open
            onOpenChange={setJudgingAgain}
          />
        )
      }
    >
      {advice?.advised && (
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
    </JuryAdviceView>
  );
}
