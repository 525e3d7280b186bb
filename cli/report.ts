// What the runner makes of a finished test: the gates' verdicts, the CSV rows and the Markdown
// summary. Pure, so the tests can check them on hand-made results. The model gates are decided
// by convex/lib/gates.ts (settled by the intervals, or resting on too little evidence).
import { decideGates, gateVerdicts, type GateVerdict, type ModelGates } from "../convex/lib/gates";
import type { TopicsRange, VerdictKind } from "../convex/lib/verdict";

export type { GateVerdict } from "../convex/lib/gates";

export interface Interval {
  low: number;
  high: number;
}

export interface PassRate {
  answers: number;
  passed: number;
  rate: number | null;
  interval: Interval | null;
}

export interface ApiRanking {
  modelId: string;
  modelName: string;
  averageScore: number;
  responses: number;
  evaluations: number;
  meanScore: number | null;
  scoreInterval: Interval | null;
  rank: { best: number; worst: number } | null;
}

export interface ApiStatus {
  testId: string;
  name: string;
  status: "pending" | "running" | "completed" | "failed" | "cancelled";
  /** The test ended and its figures will not change any more (absent from older servers). */
  final?: boolean;
  awaitingPayment: boolean;
  progress: { phase: string; percentage: number; estimatedTimeRemaining?: string };
  responses: { done: number; expected: number; missing: number };
  evaluations: { done: number; expected: number; missing: number };
  priceCents: number;
  chargedCents: number;
  usesOwnKey: boolean;
  gatewayCostUsd: number;
  error?: string;
}

export interface ApiResults {
  test: ApiStatus;
  final?: boolean;
  rankings: ApiRanking[];
  topGroup: string[];
  /** The jury's decision, worded by convex/lib/verdict.ts; leaders by model id. */
  verdict: {
    kind: VerdictKind;
    text: string;
    label?: string;
    leaders: string[];
    extraTopicsRange?: TopicsRange | null;
  } | null;
  /** The jury statistics (the gates read how many persona × topic pairs were judged). */
  jury?: { units: number } | null;
  checks: {
    checks: { id: string; label: string }[];
    models: { modelId: string; modelName: string; overall: PassRate; byCheck: ({ checkId: string } & PassRate)[] }[];
  } | null;
  /** A test set to stop when settled: why it stopped, as the results page says it (absent from older servers). */
  settle?: { stoppedReason: string | null } | null;
}

/** The gates a run is held to (the model gates' meanings are lib/gates.ts ModelGates'). */
export interface Gates extends ModelGates {
  best?: string[];
  topGroup: string[];
  maxRank?: Record<string, number>;
  minPassRate: Record<string, number>;
  /** Highest cost of the test in dollars. */
  maxCostUsd?: number;
}

/** What the test cost the user: the charge when one was made, else the gateway's cost (own key, free deployment). */
export function costOf(status: ApiStatus): number {
  return status.chargedCents > 0 ? status.chargedCents / 100 : status.gatewayCostUsd;
}

function dollars(value: number): string {
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

function percent(value: number | null): string {
  return value === null ? "–" : `${(value * 100).toFixed(1)}%`;
}

/**
 * Every gate's verdict: the model gates (lib/gates.ts), then the cost. A gate resting on too
 * little evidence fails unless `allowThinEvidence` (then it passes with a warning).
 */
export function checkGates(
  results: ApiResults,
  gates: Gates,
  options: { allowThinEvidence?: boolean } = {},
): GateVerdict[] {
  const evidence = {
    verdict: results.verdict,
    ...(results.jury ? { units: results.jury.units } : {}),
    models: results.rankings,
    checks: results.checks,
  };
  const verdicts = gateVerdicts(decideGates(evidence, gates), options);
  if (gates.maxCostUsd !== undefined) {
    const cost = costOf(results.test);
    verdicts.push({
      gate: `cost ≤ ${dollars(gates.maxCostUsd)}`,
      passed: cost <= gates.maxCostUsd,
      warning: false,
      reason: `the test cost ${dollars(cost)}${results.test.chargedCents > 0 ? " (charged)" : " (gateway)"}`,
    });
  }
  return verdicts;
}

function csvCell(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row per model: its score, interval, rank range, top-group membership and check pass rate. */
export function resultsCsv(results: ApiResults): string {
  const header = [
    "model_id",
    "model_name",
    "average_score",
    "mean_score",
    "interval_low",
    "interval_high",
    "rank_best",
    "rank_worst",
    "top_group",
    "responses",
    "evaluations",
    "check_pass_rate",
    "check_pass_low",
    "check_pass_high",
  ];
  const rows = results.rankings.map((ranking) => {
    const checks = results.checks?.models.find((model) => model.modelId === ranking.modelId)?.overall;
    return [
      ranking.modelId,
      ranking.modelName,
      ranking.averageScore,
      ranking.meanScore,
      ranking.scoreInterval?.low ?? null,
      ranking.scoreInterval?.high ?? null,
      ranking.rank?.best ?? null,
      ranking.rank?.worst ?? null,
      results.topGroup.includes(ranking.modelId) ? "yes" : "no",
      ranking.responses,
      ranking.evaluations,
      checks?.rate ?? null,
      checks?.interval?.low ?? null,
      checks?.interval?.high ?? null,
    ];
  });
  return [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\n") + "\n";
}

function mdCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** A summary for a CI job page ($GITHUB_STEP_SUMMARY): verdict, rankings, checks, gates. */
export function resultsMarkdown(results: ApiResults, verdicts: GateVerdict[], resultsUrl?: string): string {
  const { test } = results;
  const lines = [
    `## ModelJury: ${mdCell(test.name)}`,
    "",
    `**Status:** ${test.status} · **Answers:** ${test.responses.done}/${test.responses.expected} · ` +
      `**Judgements:** ${test.evaluations.done}/${test.evaluations.expected} · **Cost:** ${dollars(costOf(test))}`,
  ];
  if (results.verdict?.text) lines.push("", `> ${mdCell(results.verdict.text)}`);
  // Its figures rest on the pairs run before it stopped: say so beside them.
  if (results.settle?.stoppedReason) lines.push("", `**Stopped early:** ${mdCell(results.settle.stoppedReason)}`);
  if (test.error) lines.push("", `**Error:** ${mdCell(test.error)}`);
  lines.push(
    "",
    "| # | Model | Score (0-10) | 95% interval | Rank range | Top group |" + (results.checks ? " Checks passed |" : ""),
    "|---|---|---|---|---|---|" + (results.checks ? "---|" : ""),
  );
  results.rankings.forEach((ranking, index) => {
    const checks = results.checks?.models.find((model) => model.modelId === ranking.modelId)?.overall;
    const interval = ranking.scoreInterval
      ? `${ranking.scoreInterval.low.toFixed(2)}–${ranking.scoreInterval.high.toFixed(2)}`
      : "–";
    const rank = ranking.rank ? `${ranking.rank.best}–${ranking.rank.worst}` : "–";
    lines.push(
      `| ${index + 1} | ${mdCell(ranking.modelName)} | ${ranking.averageScore.toFixed(2)} | ${interval} | ${rank} | ${
        results.topGroup.includes(ranking.modelId) ? "✅" : ""
      } |` +
        (results.checks ? ` ${checks ? `${checks.passed}/${checks.answers} (${percent(checks.rate)})` : "–"} |` : ""),
    );
  });
  if (verdicts.length > 0) {
    lines.push("", "### Gates", "");
    for (const verdict of verdicts) {
      lines.push(
        `- ${verdict.warning ? "⚠️ passed on thin evidence" : verdict.passed ? "✅ passed" : "❌ failed"}: ${mdCell(verdict.gate)} — ${mdCell(verdict.reason)}`,
      );
    }
  }
  if (resultsUrl) lines.push("", `[Open the results](${resultsUrl})`);
  return lines.join("\n") + "\n";
}

/** A text progress bar: "[#######-------------]  35% Generating responses". */
export function progressBar(status: ApiStatus, width = 24): string {
  const percentage = Math.max(0, Math.min(100, Math.round(status.progress.percentage)));
  const filled = Math.round((percentage / 100) * width);
  const eta = status.progress.estimatedTimeRemaining ? ` · ${status.progress.estimatedTimeRemaining} left` : "";
  return (
    `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(percentage).padStart(3)}% ${status.progress.phase}` +
    ` (${status.responses.done}/${status.responses.expected} answers, ${status.evaluations.done}/${status.evaluations.expected} judgements)${eta}`
  );
}
