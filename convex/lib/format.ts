// Display formats of the spec (part 1 §9, part 2 §9). Timestamps are Unix milliseconds; `now`
// is passed in so the output is deterministic.

/** Cost per answer is shown to 6 decimals, a test's total cost to 4. */
export const COST_PER_RESPONSE_DECIMALS = 6;
export const TEST_COST_DECIMALS = 4;

/** Integer cents → '$12.34' (no thousands separators: '$1234.56'); negatives as '-$1.00'. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  return `${sign}$${(Math.abs(Math.round(cents)) / 100).toFixed(2)}`;
}

/** Dollars (float) → '$0.0012' with the given decimals (2 by default). */
export function formatDollars(dollars: number, decimals = 2): string {
  const sign = dollars < 0 && Number((-dollars).toFixed(decimals)) !== 0 ? "-" : "";
  return `${sign}$${Math.abs(dollars).toFixed(decimals)}`;
}

export function formatCostPerResponse(dollars: number): string {
  return formatDollars(dollars, COST_PER_RESPONSE_DECIMALS);
}

export function formatTestCost(dollars: number): string {
  return formatDollars(dollars, TEST_COST_DECIMALS);
}

/** Milliseconds → seconds to 1 decimal: 1234 → '1.2s'. */
export function formatLatency(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
}

/** Milliseconds → 'm:ss' (minutes keep counting past an hour: '75:03'). */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.floor(Math.max(0, ms) / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/** Duration of a test: to its completion, or to `now` while it has not completed. */
export function formatTestDuration(startedAt: number, completedAt: number | null | undefined, now: number): string {
  return formatDuration((completedAt ?? now) - startedAt);
}

/** A value already in percent (0-100) → '85.0%'. */
export function formatPercent(percent: number): string {
  return `${percent.toFixed(1)}%`;
}

/** A ratio (0-1, e.g. completionRate) → '85.0%'. */
export function formatRatio(ratio: number): string {
  return formatPercent(ratio * 100);
}

/** Scores to 2 decimals: 8.333 → '8.33'. */
export function formatScore(score: number): string {
  return score.toFixed(2);
}

/** Whole numbers with separators: 12345 → '12,345'. */
export function formatCount(count: number): string {
  return Math.round(count).toLocaleString("en-US");
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 'Just now' under a minute (or in the future), then 'Nm ago', 'Nh ago', 'Nd ago'. */
export function formatRelativeTime(timestamp: number, now: number): string {
  const elapsed = now - timestamp;
  if (elapsed < MINUTE) return "Just now";
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  return `${Math.floor(elapsed / DAY)}d ago`;
}

/**
 * Time left of a running test (null while unknown), in whole minutes rounded up so that it never
 * reads shorter than the time left: 65 s is 'About 2 min', never 'Less than a minute'.
 */
export function formatTimeRemaining(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "Calculating...";
  if (ms < MINUTE) return "Less than a minute";
  const minutes = Math.ceil(ms / MINUTE);
  if (minutes < 60) return `About ${minutes} min`;
  return `About ${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/**
 * A running test's time left as shown: counted down each second to its forecast end when the run
 * has one (lib/timeEstimates forecastTimeRemaining), else the words stored at its last fold.
 */
export function timeLeftText(progress: { endsAt?: number; estimatedTimeRemaining?: string }, now: number): string {
  if (progress.endsAt !== undefined) return formatTimeRemaining(Math.max(0, progress.endsAt - now));
  return progress.estimatedTimeRemaining ?? formatTimeRemaining(null);
}

/** First 8 characters of an id, as the account id and job ids are shown. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** 'Welcome back, {name}' (spec part 1 §3), or 'Welcome, {name}' in a new user's first session. */
export function greeting(email: string | null | undefined, isNew: boolean): string {
  return `${isNew ? "Welcome" : "Welcome back"}, ${greetingName(email)}`;
}

/** The part of the email before the @, else 'User' ('Welcome back, {name}'). */
export function greetingName(email: string | null | undefined): string {
  const local = email?.split("@")[0]?.trim();
  return local ? local : "User";
}
