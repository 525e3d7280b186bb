import { createFileRoute } from "@tanstack/react-router";

import { ComparePage } from "@/features/compare/compare-page";
import { parseCompareSearch } from "@/features/compare/search";

/** /compare?a={testId}&b={testId}: two tests the user may read, side by side. */
export const Route = createFileRoute("/_authenticated/compare")({
  validateSearch: parseCompareSearch,
  component: CompareRoute,
});

function CompareRoute() {
  const { a, b } = Route.useSearch();
  return <ComparePage a={a} b={b} />;
}
