// The admin area's pure rules (spec part 2 §2, §4, §8, §9): stuck jobs, system health, success
// rate and the job error analysis. Shared by convex/admin.ts and the admin screens.
import type { JobStatus } from "../validators";

const MINUTE = 60_000;

/** A job processing for longer than this is stuck (spec part 2 §4). */
export const STUCK_JOB_MS = 60 * MINUTE;
/** System health looks at jobs created within this window. */
export const HEALTH_WINDOW_MS = 24 * 60 * MINUTE;
/** From this many queued jobs on, the queue is backlogged and the system unhealthy. */
export const QUEUE_BACKLOG_THRESHOLD = 10;
/** The admin dashboard loads this many users and jobs; Recent Jobs shows the first 10. */
export const ADMIN_LIST_LIMIT = 100;
export const RECENT_JOBS_LIMIT = 10;

export type { JobStatus };

/** Retry is offered for failed or cancelled jobs, cancel for queued or processing ones. */
export function canRetryJob(status: JobStatus): boolean {
  return status === "failed" || status === "cancelled";
}

export function canCancelJob(status: JobStatus): boolean {
  return status === "queued" || status === "processing";
}

/** When a processing job started (the row's creation when it never recorded a start). */
export function processingSince(job: { startedAt?: number; _creationTime: number }): number {
  return job.startedAt ?? job._creationTime;
}

export function isStuckJob(
  job: { status: JobStatus; startedAt?: number; _creationTime: number },
  now: number,
): boolean {
  return job.status === "processing" && now - processingSince(job) >= STUCK_JOB_MS;
}

/** Completed jobs over all jobs, in percent (0 with no jobs). */
export function successRate(completedJobs: number, totalJobs: number): number {
  return totalJobs > 0 ? (completedJobs / totalJobs) * 100 : 0;
}

/** Healthy means no stuck jobs and fewer than 10 queued. */
export function isSystemHealthy(health: { stuckJobs: number; queuedJobs: number }): boolean {
  return health.stuckJobs === 0 && health.queuedJobs < QUEUE_BACKLOG_THRESHOLD;
}

/** The lines of the 'System Health Warning' banner. */
export function healthWarnings(health: { stuckJobs: number; queuedJobs: number }): string[] {
  const lines: string[] = [];
  if (health.stuckJobs > 0) {
    lines.push(`${health.stuckJobs} stuck ${health.stuckJobs === 1 ? "job" : "jobs"} (processing for over 1 hour).`);
  }
  if (health.queuedJobs >= QUEUE_BACKLOG_THRESHOLD)
    lines.push(`High queue backlog: ${health.queuedJobs} jobs waiting.`);
  return lines;
}

// ---------------------------------------------------------------- error analysis

export interface Finding {
  type: string;
  message: string;
  timestamp: number;
}

export interface JobAnalysis {
  errors: Finding[];
  warnings: Finding[];
  suggestions: string[];
  hasIssues: boolean;
}

export interface AnalyzedJob {
  status: JobStatus;
  errorMessage?: string | null;
  retryCount: number;
  maxRetries: number;
  startedAt?: number;
  completedAt?: number;
  _creationTime: number;
  /** Responses the job's test has generated so far. */
  responsesCount: number;
}

export const HINTS = {
  rateLimit: "Rate limiting: reduce concurrency or add delays between requests.",
  timeout: "Request timeout: the model took too long to answer; retry later or choose faster models.",
  unauthorized: "Authentication failed: check the model-routing provider key (OPENROUTER_API_KEY).",
  contextLength: "The prompt is too long: reduce prompt length or use models with a larger context window.",
  manualRetry: "Retry the job manually once the cause is fixed.",
  noResponses: "Check that the generator models are available and the provider key is valid.",
  evaluators: "Check that the evaluator models are available.",
  stuck: "Cancel the job and retry it.",
} as const;

/** What an error message points at (spec part 2 §8), most specific first. */
export function hintsForMessage(message: string): string[] {
  const text = message.toLowerCase();
  const hints: string[] = [];
  if (text.includes("rate limit") || /\b429\b/.test(text)) hints.push(HINTS.rateLimit);
  if (text.includes("timeout") || text.includes("timed out") || text.includes("abort")) hints.push(HINTS.timeout);
  if (/\b401\b/.test(text) || text.includes("unauthorized")) hints.push(HINTS.unauthorized);
  if (text.includes("context_length") || text.includes("too long")) hints.push(HINTS.contextLength);
  return hints;
}

/** The details panel's findings for one job; `now` makes the stuck check deterministic. */
export function analyzeJob(job: AnalyzedJob, now: number): JobAnalysis {
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const suggestions: string[] = [];
  const at = job.completedAt ?? job.startedAt ?? job._creationTime;

  const message = job.errorMessage?.trim();
  if (message) {
    errors.push({ type: "Job Error", message, timestamp: at });
    suggestions.push(...hintsForMessage(message));
  }

  if (job.status === "failed") {
    if (job.retryCount >= job.maxRetries) {
      errors.push({
        type: "Max Retries Reached",
        message: `Job failed after ${job.retryCount} retry attempts`,
        timestamp: at,
      });
      suggestions.push(HINTS.manualRetry);
    }
    if (job.responsesCount === 0) {
      errors.push({
        type: "No Responses Generated",
        message: "The job failed before any response was generated.",
        timestamp: at,
      });
      suggestions.push(HINTS.noResponses);
    } else {
      warnings.push({
        type: "Partial Completion",
        message: `The job failed after ${job.responsesCount} ${job.responsesCount === 1 ? "response was" : "responses were"} generated.`,
        timestamp: at,
      });
      suggestions.push(HINTS.evaluators);
    }
  }

  if (isStuckJob(job, now)) {
    const minutes = Math.floor((now - processingSince(job)) / MINUTE);
    warnings.push({
      type: "Stuck Job",
      message: `The job has been processing for ${minutes} minutes.`,
      timestamp: processingSince(job),
    });
    suggestions.push(HINTS.stuck);
  }

  const unique = [...new Set(suggestions)];
  return { errors, warnings, suggestions: unique, hasIssues: errors.length + warnings.length > 0 };
}
