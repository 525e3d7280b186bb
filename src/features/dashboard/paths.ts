// Links to screens whose route files other areas own; typed as plain strings (see lib/paths.ts).

export function resultsPath(testId: string): string {
  return `/dashboard/results/${testId}`;
}
