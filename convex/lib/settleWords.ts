// "Stop when settled" in words, one wording for the setup page, the monitor, the results page, the
// HTTP API and the refund's reason (as lib/verdict.ts for the jury's decision). Pure.
import type { SettleQuestion, SettleStatus } from "./settle";
import { MIXTURE_MIN_VALUES } from "./stats/sequential";
import { joinNames } from "./verdict";

type Names = ReadonlyMap<string, string>;
const nameOf = (names: Names, id: string | null) => (id === null ? "" : (names.get(id) ?? id));
const percent = (value: number) => `${Math.round(value * 100)}%`;
const points = (value: number) => (Math.round(value * 10) / 10).toString().replace("-", "−");
function pairsText(count: number): string {
  return `${count} ${count === 1 ? "pair" : "pairs"}`;
}

/** The question as the setup page and the results ask it. */
export function settleQuestionText(
  question: Pick<SettleQuestion, "question" | "modelId" | "delta" | "minPassRate">,
  names: Names,
): string {
  switch (question.question) {
    case "best":
      return "Which model is best?";
    case "withinDelta":
      return `Is ${nameOf(names, question.modelId ?? null)} within ${points(question.delta ?? 0)} points of the best?`;
    case "passRate":
      return `Does each model pass its checks at ${percent(question.minPassRate ?? 0)} or more?`;
  }
}

/** The answer once settled, e.g. "GPT-4.1 is best". */
function settledAnswer(status: SettleStatus, names: Names): string {
  const model = nameOf(names, status.modelId);
  const delta = points(-status.threshold);
  switch (status.outcome) {
    case "best":
      return `${model} is best`;
    case "within":
      return `${model} is within ${delta} points of the best`;
    case "outside":
      return `${model} is not within ${delta} points of the best (${nameOf(names, status.otherModelId)} is further ahead)`;
    case "pass":
      return `every model passes its checks at ${percent(status.threshold)} or more`;
    case "fail": {
      const failing = status.failing.map((id) => nameOf(names, id));
      return `${joinNames(failing)} ${failing.length === 1 ? "passes" : "pass"} its checks less than ${percent(status.threshold)} of the time`;
    }
    default:
      return "";
  }
}

/** What keeps the question open: the sequence that still straddles its threshold. */
function openReason(status: SettleStatus, names: Names): string {
  const level = percent(status.confidence);
  const pairs = `${status.pairsDone} of ${pairsText(status.pairsTotal)} judged`;
  if (status.interval === null || status.pairsDone < MIXTURE_MIN_VALUES)
    return `${pairs}; its ${level} sequences need at least ${MIXTURE_MIN_VALUES} judged pairs`;
  const { low, high } = status.interval;
  if (status.question === "passRate")
    return `${nameOf(names, status.modelId)}'s pass rate (${percent(low)}–${percent(high)}) still includes ${percent(status.threshold)} (${pairs})`;
  const range = `${points(low)} to ${points(high)} points`;
  const gap = `the gap between ${nameOf(names, status.modelId)} and ${nameOf(names, status.otherModelId)}`;
  return `${gap} (${range}, ${level} sequence) still includes ${points(status.threshold)} (${pairs})`;
}

/** The monitor's line: "Settled at 95%: GPT-4.1 is best" or "Not settled yet: …". */
export function settleLine(status: SettleStatus, names: Names): string {
  if (status.settled) return `Settled at ${percent(status.confidence)}: ${settledAnswer(status, names)}`;
  // Every pair judged and still open: the test ran to the end, and the jury's verdict is the full run's.
  if (status.pairsDone === status.pairsTotal)
    return `Not settled after all ${pairsText(status.pairsTotal)}: ${openReason(status, names)}`;
  return `Not settled yet: ${openReason(status, names)}`;
}

/** The results' words for a test that stopped early: "Settled after 38 of 100 pairs". */
export function settledAfterText(stopped: { readonly pairsDone: number; readonly pairsTotal: number }): string {
  return `Settled after ${stopped.pairsDone} of ${pairsText(stopped.pairsTotal)}`;
}

/** Why the test stopped, as the monitor and results say it, and the refund's reason. */
export function stoppedReasonText(stopped: { readonly pairsDone: number; readonly pairsTotal: number }): string {
  const left = stopped.pairsTotal - stopped.pairsDone;
  return `${settledAfterText(stopped)}: the question was settled, so the calls of the other ${pairsText(left)} were not made.`;
}
