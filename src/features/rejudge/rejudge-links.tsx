// The results page's part of "Judge again": the button and its dialog on a completed test, and on
// a re-judging the test it judged again with "Compare the two juries" (the compare page).
import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { GavelIcon, GitCompareArrowsIcon } from "lucide-react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import type { TestConfiguration } from "../../../convex/validators";
import { JudgeAgainDialog } from "./judge-again-dialog";

export const REJUDGE_TEXTS = {
  judgeAgain: "Judge Again",
  compareJuries: "Compare the two juries",
  rejudgingOf: "Re-judging of",
  deletedOriginal: "a deleted test",
  judgedAgainIn: "Judged again in",
} as const;

/** "Judge Again" and, on a re-judging, "Compare the two juries": header actions of the results. */
export function RejudgeActions({ testId, configuration }: { testId: Id<"tests">; configuration: TestConfiguration }) {
  const about = useQuery(api.rejudge.about, { testId });
  const [open, setOpen] = useState(false);
  if (about === undefined) return null;
  return (
    <>
      {about.original !== null && about.original.name !== null && (
        <CompareJuriesButton original={about.original.testId} rejudge={testId} />
      )}
      {about.canJudgeAgain && (
        <Button variant="outline" onClick={() => setOpen(true)}>
          <GavelIcon /> {REJUDGE_TEXTS.judgeAgain}
        </Button>
      )}
      {open && <JudgeAgainDialog testId={testId} configuration={configuration} open onOpenChange={setOpen} />}
    </>
  );
}

function CompareJuriesButton({
  original,
  rejudge,
  size,
}: {
  original: Id<"tests">;
  rejudge: Id<"tests">;
  size?: "lg";
}) {
  return (
    <Button asChild variant="outline" size={size}>
      <Link to="/compare" search={{ a: original, b: rejudge }}>
        <GitCompareArrowsIcon /> {REJUDGE_TEXTS.compareJuries}
      </Link>
    </Button>
  );
}

/** On a finished re-judging's monitor: "Compare the two juries" beside View Results. */
export function CompareJuriesLink({ testId }: { testId: Id<"tests"> }) {
  const original = useQuery(api.rejudge.about, { testId })?.original;
  if (!original || original.name === null) return null;
  return <CompareJuriesButton original={original.testId} rejudge={testId} size="lg" />;
}

/**
 * On a re-judging, "Re-judging of <original>", linked to the original's results; on a test judged
 * again, "Judged again in <re-judging>", each linked with its "Compare the two juries"; nothing on
 * any other test.
 */
export function RejudgeNotice({ testId }: { testId: Id<"tests"> }) {
  const about = useQuery(api.rejudge.about, { testId });
  if (!about) return null;
  return (
    <>
      {about.original && <RejudgeOf original={about.original} />}
      {about.rejudgings.length > 0 && <JudgedAgainIn original={testId} rejudgings={about.rejudgings} />}
    </>
  );
}

function JudgedAgainIn({
  original,
  rejudgings,
}: {
  original: Id<"tests">;
  rejudgings: { testId: Id<"tests">; name: string }[];
}) {
  return (
    <div className="flex items-start gap-2 text-sm text-muted-foreground" data-testid="judged-again-in">
      <GavelIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        <span>{REJUDGE_TEXTS.judgedAgainIn} </span>
        <ul className="inline">
          {rejudgings.map((rejudging, index) => (
            <li key={rejudging.testId} className="inline">
              {index > 0 && ", "}
              <Link
                to="/dashboard/results/$testId"
                params={{ testId: rejudging.testId }}
                className="font-medium break-words text-foreground underline-offset-4 hover:underline"
              >
                {rejudging.name}
              </Link>{" "}
              (
              <Link
                to="/compare"
                search={{ a: original, b: rejudging.testId }}
                className="underline-offset-4 hover:underline"
              >
                {REJUDGE_TEXTS.compareJuries.toLowerCase()}
              </Link>
              )
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** One line naming the test a re-judging judged again (the results page and History). */
export function RejudgeOf({ original }: { original: { testId: Id<"tests">; name: string | null } }) {
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="rejudge-of">
      <GavelIcon className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 truncate">
        {REJUDGE_TEXTS.rejudgingOf}{" "}
        {original.name === null ? (
          REJUDGE_TEXTS.deletedOriginal
        ) : (
          <Link
            to="/dashboard/results/$testId"
            params={{ testId: original.testId }}
            className="font-medium text-foreground underline-offset-4 hover:underline"
          >
            {original.name}
          </Link>
        )}
      </span>
    </p>
  );
}
