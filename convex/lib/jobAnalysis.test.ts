import { describe, expect, test } from "vitest";
import {
  analyzeJob,
  canCancelJob,
  canRetryJob,
  healthWarnings,
  HINTS,
  hintsForMessage,
  isStuckJob,
  isSystemHealthy,
  successRate,
  type AnalyzedJob,
} from "./jobAnalysis";

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const MINUTE = 60_000;

function job(overrides: Partial<AnalyzedJob> = {}): AnalyzedJob {
  return {
    status: "failed",
    errorMessage: undefined,
    retryCount: 0,
    maxRetries: 3,
    _creationTime: NOW - 30 * MINUTE,
    startedAt: NOW - 20 * MINUTE,
    completedAt: NOW - 10 * MINUTE,
    responsesCount: 4,
    ...overrides,
  };
}

const types = (findings: { type: string }[]) => findings.map((finding) => finding.type);

describe("hints by message", () => {
  test.each([
    ["Rate limit exceeded for this model", HINTS.rateLimit],
    ["Gateway error 429: slow down", HINTS.rateLimit],
    ["Request timeout after 60s", HINTS.timeout],
    ["The operation was aborted", HINTS.timeout],
    ["Gateway error 401", HINTS.unauthorized],
    ["Unauthorized: invalid key", HINTS.unauthorized],
    ["context_length_exceeded", HINTS.contextLength],
    ["The prompt is too long for this model", HINTS.contextLength],
  ])("%s", (message, hint) => {
    expect(hintsForMessage(message)).toEqual([hint]);
  });

  test("no hint for an unrelated message, and 429 or 401 only as whole numbers", () => {
    expect(hintsForMessage("Something else broke")).toEqual([]);
    expect(hintsForMessage("model id 14290")).toEqual([]);
    expect(hintsForMessage("job 4015")).toEqual([]);
  });
});

describe("analyzeJob", () => {
  test("a completed job without error has no issues", () => {
    const analysis = analyzeJob(job({ status: "completed" }), NOW);
    expect(analysis).toEqual({ errors: [], warnings: [], suggestions: [], hasIssues: false });
  });

  test("Job Error carries the message and its hints", () => {
    const analysis = analyzeJob(job({ status: "completed", errorMessage: "429 rate limit" }), NOW);
    expect(analysis.errors).toEqual([{ type: "Job Error", message: "429 rate limit", timestamp: NOW - 10 * MINUTE }]);
    expect(analysis.suggestions).toEqual([HINTS.rateLimit]);
    expect(analysis.hasIssues).toBe(true);
  });

  test("Max Retries Reached when the retry count reaches the maximum", () => {
    const analysis = analyzeJob(job({ retryCount: 3, maxRetries: 3 }), NOW);
    expect(types(analysis.errors)).toContain("Max Retries Reached");
    expect(analysis.errors.find((e) => e.type === "Max Retries Reached")?.message).toBe(
      "Job failed after 3 retry attempts",
    );
    expect(analysis.suggestions).toContain(HINTS.manualRetry);
    expect(types(analyzeJob(job({ retryCount: 2, maxRetries: 3 }), NOW).errors)).not.toContain("Max Retries Reached");
  });

  test("No Responses Generated for a failed job with no responses", () => {
    const analysis = analyzeJob(job({ responsesCount: 0, errorMessage: "No responses were generated." }), NOW);
    expect(types(analysis.errors)).toEqual(["Job Error", "No Responses Generated"]);
    expect(types(analysis.warnings)).toEqual([]);
    expect(analysis.suggestions).toContain(HINTS.noResponses);
  });

  test("Partial Completion for a failed job with some responses, suggesting the evaluators", () => {
    const analysis = analyzeJob(job({ responsesCount: 5 }), NOW);
    expect(types(analysis.warnings)).toEqual(["Partial Completion"]);
    expect(analysis.warnings[0]!.message).toContain("5 responses");
    expect(analysis.suggestions).toContain(HINTS.evaluators);
    expect(analysis.hasIssues).toBe(true);
  });

  test("Stuck Job after 60 minutes processing, suggesting cancel and retry", () => {
    const processing = job({ status: "processing", startedAt: NOW - 61 * MINUTE, completedAt: undefined });
    const analysis = analyzeJob(processing, NOW);
    expect(types(analysis.warnings)).toEqual(["Stuck Job"]);
    expect(analysis.warnings[0]!.message).toBe("The job has been processing for 61 minutes.");
    expect(analysis.suggestions).toEqual([HINTS.stuck]);
    expect(analyzeJob({ ...processing, startedAt: NOW - 59 * MINUTE }, NOW).hasIssues).toBe(false);
  });

  test("suggestions are not repeated", () => {
    const analysis = analyzeJob(job({ errorMessage: "rate limit 429, rate limit again" }), NOW);
    expect(analysis.suggestions.filter((s) => s === HINTS.rateLimit)).toHaveLength(1);
  });
});

describe("health rules", () => {
  test("stuck means processing for an hour or more", () => {
    const base = { _creationTime: NOW - 120 * MINUTE };
    expect(isStuckJob({ ...base, status: "processing", startedAt: NOW - 60 * MINUTE }, NOW)).toBe(true);
    expect(isStuckJob({ ...base, status: "processing", startedAt: NOW - 59 * MINUTE }, NOW)).toBe(false);
    expect(isStuckJob({ ...base, status: "processing" }, NOW)).toBe(true);
    expect(isStuckJob({ ...base, status: "queued" }, NOW)).toBe(false);
  });

  test("healthy means no stuck jobs and fewer than 10 queued", () => {
    expect(isSystemHealthy({ stuckJobs: 0, queuedJobs: 9 })).toBe(true);
    expect(isSystemHealthy({ stuckJobs: 0, queuedJobs: 10 })).toBe(false);
    expect(isSystemHealthy({ stuckJobs: 1, queuedJobs: 0 })).toBe(false);
  });

  test("the warning banner's lines", () => {
    expect(healthWarnings({ stuckJobs: 2, queuedJobs: 12 })).toEqual([
      "2 stuck jobs (processing for over 1 hour).",
      "High queue backlog: 12 jobs waiting.",
    ]);
    expect(healthWarnings({ stuckJobs: 0, queuedJobs: 9 })).toEqual([]);
  });

  test("success rate and the actions offered per status", () => {
    expect(successRate(0, 0)).toBe(0);
    expect(successRate(2, 3)).toBeCloseTo(66.667, 2);
    expect(canRetryJob("failed") && canRetryJob("cancelled")).toBe(true);
    expect(canRetryJob("completed") || canRetryJob("queued")).toBe(false);
    expect(canCancelJob("queued") && canCancelJob("processing")).toBe(true);
    expect(canCancelJob("failed") || canCancelJob("pending_payment")).toBe(false);
  });
});
