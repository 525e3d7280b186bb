// The dashboard home's data shape and the small rules its panels follow (spec part 1 §2, §9).
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";

export type DashboardHomeData = FunctionReturnType<typeof api.dashboard.home>;
export type RecentTest = DashboardHomeData["recentTests"][number];
export type ActivityEntry = DashboardHomeData["activity"][number];
export type SavedPersona = DashboardHomeData["personas"]["items"][number];
export type SavedTopic = DashboardHomeData["topics"]["items"][number];

/** How an unpaid draft's status reads (its test status is pending, its job pending_payment). */
export const DRAFT_STATUS_LABEL = "Pending Payment";

/** Of the 10 tests loaded, the list shows 5. */
export const RECENT_TESTS_SHOWN = 5;

export type StatusDotTone = "completed" | "running" | "failed" | "other";

/** Recent Tests dots: completed green, running blue (pulsing), failed red, anything else yellow. */
export function statusDotTone(status: string): StatusDotTone {
  if (status === "completed" || status === "running" || status === "failed") return status;
  return "other";
}

export function testDisplayName(name: string): string {
  return name.trim() || "Unnamed Test";
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? singular : pluralForm}`;
}

export const ACTIVITY_LABELS: Readonly<Record<ActivityEntry["kind"], string>> = {
  test_completed: "Test completed",
  test_failed: "Test failed",
  test_cancelled: "Test cancelled",
  test_running: "Test started",
  test_created: "Test created",
  persona_saved: "Persona saved",
  topic_saved: "Topic saved",
};
