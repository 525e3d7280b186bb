import { createFileRoute } from "@tanstack/react-router";

import { ReviewPage } from "@/features/review/review-page";

// `$testId_` keeps this page out of the results page's layout: it is a screen of its own.
export const Route = createFileRoute("/_authenticated/dashboard/results/$testId_/review")({
  component: ReviewRoute,
});

function ReviewRoute() {
  const { testId } = Route.useParams();
  return <ReviewPage testId={testId} />;
}
