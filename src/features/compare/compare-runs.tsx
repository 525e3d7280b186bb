// How each compared test ran (issue 35 on the compare page), from compare.get `runs`: its repeats
// with each model's spread between them, and why it stopped early with the pairs its figures rest
// on, in the results page's words and components (SettleNoticeView, RepeatSpreadRows).
import { RepeatSpreadRows, repeatSpreadDescription, REPEAT_SPREAD_TITLE } from "@/components/results/repeat-spread";
import { SettleNoticeView } from "@/components/settle-notice";

import type { Comparison } from "./compare-page";
import { Section } from "./compare-section";

type Side = "a" | "b";
type RunFacts = Comparison["runs"][Side];
const SIDES: readonly Side[] = ["a", "b"];
const letter = (side: Side) => side.toUpperCase();

/** In a test's card: "Repeats ×3" and its stop-when-settled notice (the question, and why it stopped). */
export function RunFactsOfTest({ side, runs }: { side: Side; runs: RunFacts }) {
  return (
    <>
      {runs.repeats > 1 && (
        <p className="text-foreground" data-testid={`compare-repeats-${side}`}>
          Repeats <span className="tabular-nums">×{runs.repeats}</span>
        </p>
      )}
      {runs.settle !== null && (
        <SettleNoticeView status={runs.settle} label={`Test ${letter(side)}: stop when settled`} />
      )}
    </>
  );
}

/**
 * Under the scores: which test stopped early, so that its figures rest on fewer pairs than the
 * other's (a difference between the two then partly reflects the pairs each ran).
 */
export function FewerPairsNote({ runs }: { runs: Comparison["runs"] }) {
  const notes = SIDES.flatMap((side) => {
    const stopped = runs[side].settle?.stopped;
    if (!stopped) return [];
    return [
      `Test ${letter(side)} stopped early (${runs[side].settle!.settledAfter}): its scores rest on those ${stopped.pairsDone} pairs, not all ${stopped.pairsTotal}.`,
    ];
  });
  if (notes.length === 0) return null;
  return (
    <p className="text-sm text-muted-foreground" data-testid="compare-fewer-pairs">
      {notes.join(" ")}
    </p>
  );
}

/** Each repeated test's spread between repeats, as its results page shows it; nothing when neither was repeated. */
export function RepeatSpreadsSection({ runs }: { runs: Comparison["runs"] }) {
  if (SIDES.every((side) => runs[side].repeats === 1)) return null;
  return (
    <Section title={REPEAT_SPREAD_TITLE}>
      <div className="grid gap-4 md:grid-cols-2">
        {SIDES.map((side) => (
          <div
            key={side}
            className="min-w-0 space-y-2"
            role="region"
            aria-label={`Between-repeat spread in test ${letter(side)}`}
          >
            <h3 className="font-semibold">Test {letter(side)}</h3>
            {runs[side].repeats === 1 ? (
              <p className="text-sm text-muted-foreground">Not repeated: each persona × topic ran once.</p>
            ) : (
              <>
                <p className="text-sm text-muted-foreground">{repeatSpreadDescription(runs[side].repeats)}</p>
                <RepeatSpreadRows
                  models={runs[side].repeatSpread}
                  label={`Spread of each model's score between repeats in test ${letter(side)}`}
                />
              </>
            )}
          </div>
        ))}
      </div>
    </Section>
  );
}
