// "Model Rankings" on the results and shared pages: the jury's rankings with their intervals once
// the judges have scored, the plain list of average scores until then.
import { ResultsSection } from "@/components/results-section";

import { JuryRankings, JurySummary, type JurySource } from "./jury-stats";
import { RankingsChart, RankingsList, type RankingRow } from "./rankings";

export function RankingsSection({
  title,
  source,
  rankings,
  detailed = false,
}: {
  title: string;
  source: JurySource;
  rankings: readonly RankingRow[];
  /** The owner's page: the jury's summary sentence on top and the scores' chart beside the list. */
  detailed?: boolean;
}) {
  const list = <JuryRankings source={source} fallback={<RankingsList rankings={rankings} />} />;
  return (
    <ResultsSection title={title} description="Average score per model, out of 10" defaultOpen>
      {detailed ? (
        <>
          <JurySummary source={source} />
          <div className="mt-4 grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
            {list}
            <RankingsChart rankings={rankings} />
          </div>
        </>
      ) : (
        list
      )}
    </ResultsSection>
  );
}
