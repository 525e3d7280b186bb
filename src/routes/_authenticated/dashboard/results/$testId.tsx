import { createFileRoute } from "@tanstack/react-router";

import { ResultsPage } from "@/features/results/results-page";

export const Route = createFileRoute("/_authenticated/dashboard/results/$testId")({
  component: ResultsRoute,
});

function ResultsRoute() {
  const { testId } = Route.useParams();
  return <ResultsPage testId={testId} />;
}
