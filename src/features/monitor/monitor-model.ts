// What the monitor derives from `api.tests.monitor`, kept pure so it can be tested on its own.
import type { FunctionReturnType } from "convex/server";

import type { api } from "../../../convex/_generated/api";
import { formatCount } from "../../../convex/lib/format";
import type { TestCounters } from "../../../convex/lib/metrics";

export type MonitorData = FunctionReturnType<typeof api.tests.monitor>;
export type MonitorTest = MonitorData["test"];
export type MonitorRanking = MonitorData["rankings"][number];
export type MonitorResponse = MonitorData["latestResponses"][number];

/**
 * Where a test stands, as the monitor tells it: a pending test waits either for its payment
 * (job pending_payment) or for a free worker slot (job queued); then it runs and ends.
 */
export type MonitorStage = "awaiting_payment" | "queued" | "running" | "completed" | "failed" | "cancelled";

export function monitorStage(test: Pick<MonitorTest, "status" | "jobStatus">): MonitorStage {
  if (test.status === "pending") return test.jobStatus === "pending_payment" ? "awaiting_payment" : "queued";
  return test.status;
}

/** The running test's counters as lib/metrics' FIGURES compute from them (the monitor's live figures). */
export function monitorCounters(
  test: Pick<MonitorTest, "totalLatencyMs" | "responsesCount" | "expectedResponses">,
): TestCounters {
  return {
    responses: test.responsesCount,
    expectedResponses: test.expectedResponses,
    latencyMsSum: test.totalLatencyMs,
  };
}

/** How many ranked models the top five leave out ('+N more'). */
export function hiddenRankedModels(data: Pick<MonitorData, "rankings" | "rankedModels">): number {
  return Math.max(0, data.rankedModels - data.rankings.length);
}

/** Scores are out of 10; the bar's width is score / 10 (spec part 1 §9), kept within 0-100%. */
export function scoreBarPercent(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.min(100, Math.max(0, score * 10));
}

/**
 * The span 'time since start' covers: from the start of the run (the creation of the test while
 * it still waits to start) to its end, or to now while it has not ended.
 */
export function elapsedSpan(test: Pick<MonitorTest, "startedAt" | "_creationTime" | "completedAt">): {
  start: number;
  end: number | undefined;
} {
  return { start: test.startedAt ?? test._creationTime, end: test.completedAt };
}

/** The test's size as the header tells it (the monitor reads no configuration while a test runs). */
export function modelCounts(size: MonitorTest["size"]) {
  return { models: size.models, judges: size.judges, personas: size.personas, topics: size.topics };
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A one-line preview of an answer for the activity list (the dialog shows it all). */
export function previewOf(content: string, maxLength = 160): string {
  const flat = content.replace(/\s+/g, " ").trim();
  if (flat === "") return "(empty response)";
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

/**
 * What the progress percentage counts, in words beside it: every model call of the run, the
 * judges' included, so that '6%' beside '54 of 108 responses generated' reads as what it is
 * ('6% of 900 model calls: 36 to write answers, 864 to judge them').
 */
export function progressMeaning(test: Pick<MonitorTest, "size">): string {
  const calls = { generation: test.size.generationCalls, judging: test.size.judgingCalls };
  const total = calls.generation + calls.judging;
  if (total === 0) return "of the run's model calls";
  return (
    `of ${formatCount(total)} model ${total === 1 ? "call" : "calls"}: ` +
    `${formatCount(calls.generation)} to write answers, ${formatCount(calls.judging)} to judge them`
  );
}

/**
 * The judge scores behind the monitor's jury figures, counted as the test counts them: the
 * statistics are recomputed a moment after the scores land, so while they lag the line says so
 * ('216 judge scores · figures from 215, updating') rather than showing the older count alone.
 */
export function juryCountText(evaluationsCount: number, evaluationsSeen: number): string {
  const total = Math.max(evaluationsCount, evaluationsSeen);
  const scores = `${formatCount(total)} judge ${total === 1 ? "score" : "scores"}`;
  return evaluationsSeen < total ? `${scores} · figures from ${formatCount(evaluationsSeen)}, updating` : scores;
}
