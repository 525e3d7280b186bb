import { createFileRoute } from "@tanstack/react-router";

import { ResultsRedirect } from "@/features/monitor/results-redirect";

// /dashboard/results without an id only redirects (spec part 2 §2); the rule lives in ResultsRedirect.
export const Route = createFileRoute("/_authenticated/dashboard/results/")({
  component: ResultsRedirect,
});
