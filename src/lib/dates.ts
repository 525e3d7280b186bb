// Every date the app shows is formatted here. Two forms: the reader's locale (lists, notices,
// the results' times) and the admin screens' fixed en-US form (spec part 2 §9: 'Jan 15, 2025').

/** The date in the reader's locale ('1/15/2025'). */
export function formatDate(timestamp: number): string {
  return new Date(timestamp).toLocaleDateString();
}

/** The date and time in the reader's locale; a dash when there is none. */
export function formatDateTime(timestamp: number | null | undefined): string {
  return timestamp == null ? DASH : new Date(timestamp).toLocaleString();
}

export const DASH = "—";

const MEDIUM_DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });
const MEDIUM_DATE_TIME = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
});

/** 'Jan 15, 2025'. */
export function formatMediumDate(timestamp: number): string {
  return MEDIUM_DATE.format(timestamp);
}

/** 'Jan 15, 2025, 10:00:05 AM'; a dash when there is none. */
export function formatMediumDateTime(timestamp: number | null | undefined): string {
  return timestamp == null ? DASH : MEDIUM_DATE_TIME.format(timestamp);
}
