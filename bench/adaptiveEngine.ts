// The run of a test set to stop when settled as the engine makes it (bench/adaptive.ts counts
// its calls with this): one pool worker keeping at most `inFlight` gateway calls out
// (lib/claimOrder.ts settleInFlightCap), claiming judge calls before answers (claimKinds), the
// generation calls in the seeded order, one pair's at a time while fewer than
// SETTLE_PAIRS_AHEAD pairs are in progress (settleGenerateAllowance); a pair's judge calls exist from the report after its answers all landed (the worker
// reports PAIR_REPORT_MS after a pair's last answer, else every BEAT_MS); after a report that
// counted judge results, at most once every JURY_STATS_POLL_MS, the worker looks
// (core/pipeline/workerLook.ts): the look sees the judge results recorded before the report, and
// a settled look ends the test LOOK_MS later. Calls out then still land (they are paid for);
// calls pending are never made. "Calls used" is the calls claimed by then over all the test's
// calls. Latencies: each call its kind's latency times a lognormal factor.
import { claimKinds, settleGenerateAllowance } from "../convex/lib/claimOrder";
import { JURY_STATS_POLL_MS } from "../convex/core/jury/poll";
import type { SettlePair, SettleQuestion, SettleStatus } from "../convex/lib/settle";
import { settleStatus } from "../convex/lib/settle";
import { gaussian, streamRandom } from "../convex/lib/stats/simulated.helpers";

/** The worker's report cadence (core/pipeline/worker.ts BEAT_MS, PAIR_REPORT_MS). */
const BEAT_MS = 1_000;
const PAIR_REPORT_MS = 100;
/** How long a report takes to create a pair's judge calls, and a look to read, compute and store. */
const REPORT_MS = 30;
const LOOK_MS = 400;
/** Catalog-like latencies: an answer (generation call) and a verdict (judge call). */
const GENERATE_MS = 4_000;
const JUDGE_MS = 2_000;
const LATENCY_SPREAD = 0.4;

export interface EngineRun {
  /** Calls claimed by the end over the test's calls (1 when it ran to the end). */
  callsUsed: number;
  /** The settled look, or null when the test ran every pair. */
  settled: SettleStatus | null;
  /** Looks taken. */
  looks: number;
  /** When it ended (ms of simulated time). */
  wallMs: number;
}

/**
 * One run: `ordered` are its pairs in the seeded order (each model's mean score there), each
 * with `generateCalls` answers' calls and `judgeCalls` judge calls; `inFlight` calls out at most.
 */
export function engineRun(options: {
  question: SettleQuestion;
  models: readonly string[];
  ordered: readonly SettlePair[];
  generateCalls: number;
  judgeCalls: number;
  inFlight: number;
  seed: string;
}): EngineRun {
  const { ordered, generateCalls, judgeCalls } = options;
  const pairs = ordered.length;
  const total = pairs * (generateCalls + judgeCalls);
  const random = streamRandom(`engine:${options.seed}`);
  const latency = (kind: "generate" | "evaluate") =>
    (kind === "generate" ? GENERATE_MS : JUDGE_MS) * Math.exp(LATENCY_SPREAD * gaussian(random));
  const kinds = claimKinds();
  const pending = { generate: [] as number[], evaluate: [] as number[] };
  for (let pair = 0; pair < pairs; pair++) for (let call = 0; call < generateCalls; call++) pending.generate.push(pair);
  const answersLeft = Array<number>(pairs).fill(generateCalls);
  const verdictsLeft = Array<number>(pairs).fill(judgeCalls);
  /** When each pair's last verdict was recorded. */
  const judgedAt = Array<number>(pairs).fill(Infinity);
  /** Pairs whose answers all landed, waiting for a report to get their judge calls. */
  let answered: number[] = [];
  const out: { end: number; kind: "generate" | "evaluate"; pair: number }[] = [];
  let claimed = 0;
  let now = 0;
  let lastReport = -Infinity;
  let pairDone = false;
  let judgedSinceReport = false;
  let owed = false;
  let lastLook = -Infinity;
  let look: { end: number; sees: number } | null = null;
  let looks = 0;
  const statusOf = new Map<number, SettleStatus>();
  const judgedPrefix = (before: number) => {
    let count = 0;
    while (count < pairs && judgedAt[count]! < before) count++;
    return count;
  };
  for (;;) {
    // Free slots are filled at once: judge calls first, then answers in the seeded order.
    // One claim: judge calls first, then at most one pair's answers while few pairs are in
    // progress (lib/claimOrder.ts settleGenerateAllowance).
    const inProgress = new Set(answered);
    for (const call of out) inProgress.add(call.pair);
    let generateLeft = settleGenerateAllowance(inProgress.size, generateCalls);
    while (out.length < options.inFlight) {
      const kind = kinds.find(
        (candidate) => pending[candidate].length > 0 && (candidate === "evaluate" || generateLeft > 0),
      );
      if (kind === undefined) break;
      if (kind === "generate") generateLeft--;
      out.push({ end: now + latency(kind), kind, pair: pending[kind].shift()! });
      claimed++;
    }
    const reportDue = Math.max(lastReport + (pairDone ? PAIR_REPORT_MS : BEAT_MS), now);
    const landing = out.reduce((first, call) => Math.min(first, call.end), Infinity);
    const working = out.length > 0 || answered.length > 0 || look !== null;
    if (!working && pending.generate.length === 0 && pending.evaluate.length === 0) break;
    now = Math.min(landing, reportDue, look?.end ?? Infinity);
    if (look !== null && now === look.end) {
      const sees = look.sees;
      look = null;
      let status = statusOf.get(sees);
      if (status === undefined) {
        status = settleStatus(options.question, options.models, ordered.slice(0, sees), pairs);
        statusOf.set(sees, status);
      }
      if (status.settled) return { callsUsed: claimed / total, settled: status, looks, wallMs: now };
      continue;
    }
    if (now === landing) {
      const index = out.findIndex((call) => call.end === landing);
      const [call] = out.splice(index, 1);
      if (call!.kind === "generate") {
        if (--answersLeft[call!.pair]! === 0) {
          answered.push(call!.pair);
          pairDone = true;
        }
      } else {
        judgedSinceReport = true;
        if (--verdictsLeft[call!.pair]! === 0) judgedAt[call!.pair] = now;
      }
      continue;
    }
    // A report: the answered pairs get their judge calls; a look may start.
    lastReport = now;
    pairDone = false;
    for (const pair of answered) for (let call = 0; call < judgeCalls; call++) pending.evaluate.push(pair);
    answered = [];
    now += REPORT_MS;
    if (judgedSinceReport) owed = true;
    judgedSinceReport = false;
    if (owed && look === null && now - lastLook >= JURY_STATS_POLL_MS) {
      owed = false;
      lastLook = now;
      looks++;
      look = { end: now + LOOK_MS, sees: judgedPrefix(lastReport) };
    }
  }
  return { callsUsed: 1, settled: null, looks, wallMs: now };
}
