// Display rules of the admin screens (spec part 2 §2, §9): dates, durations, amounts and the
// client-side searches over the loaded rows.
import { DASH, formatMediumDate } from "@/lib/dates";

import { formatCents, formatDuration, shortId } from "../../../convex/lib/format";

/** Last Login: the date, or 'Never'. */
export function formatLastLogin(timestamp: number | null): string {
  return timestamp === null ? "Never" : formatMediumDate(timestamp);
}

/** m:ss from start to completion, or a dash while either is missing. */
export function formatJobDuration(job: { startedAt: number | null; completedAt: number | null }): string {
  if (job.startedAt === null || job.completedAt === null) return DASH;
  return formatDuration(job.completedAt - job.startedAt);
}

/** Amount in dollars, or a dash for a job nobody paid for. */
export function formatJobAmount(amountCents: number): string {
  return amountCents > 0 ? formatCents(amountCents) : DASH;
}

export { shortId };

/** Case-insensitive match over email and full name. */
export function matchesUserSearch(user: { email: string; fullName: string | null }, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return user.email.toLowerCase().includes(needle) || (user.fullName ?? "").toLowerCase().includes(needle);
}

/** Case-insensitive match over test name, user email and job id. */
export function matchesJobSearch(
  job: { _id: string; testName: string; userEmail: string | null },
  search: string,
): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return (
    job.testName.toLowerCase().includes(needle) ||
    (job.userEmail ?? "").toLowerCase().includes(needle) ||
    job._id.toLowerCase().includes(needle)
  );
}

/** 'X of Y users' / 'X of Y jobs'. */
export function countLabel(shown: number, total: number, noun: string): string {
  return `${shown} of ${total} ${noun}`;
}
