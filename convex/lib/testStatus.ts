// The status rules of a test and its job, shared by the backend's endings (core/testEnding.ts),
// the monitor, the results page and the admin page.
import type { JobStatus, TestStatus } from "../validators";

export type EndedTestStatus = Extract<TestStatus, "completed" | "failed" | "cancelled">;

/** Completed, failed or cancelled: the test will not change any more (until an admin re-runs it). */
export function hasEnded(status: TestStatus): status is EndedTestStatus {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/**
 * Stop Test is offered, and accepted, only while running (spec part 1 §4): an unpaid draft is
 * paid or discarded instead, and a queued test starts on its own.
 */
export function canStop(status: TestStatus): boolean {
  return status === "running";
}

/** A job that is completed, failed or cancelled is left alone when its test ends. */
export function hasJobEnded(status: JobStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
