// The pool worker (docs/pipeline.md): one per running test, run by the worker host
// (hostLoop.ts), keeps many gateway calls in flight, records them in batches as they land, and
// reports about once a second; the bookkeeping it calls lives beside it in core/pipeline/.
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { ActionCtx } from "../../_generated/server";
import { buildRetryMessages, type ChatMessage } from "../../lib/prompts";
import { parseGenerationReply, parseRankingReply, parseRatingReply } from "../../lib/replies";
import { allowedInFlight, initialConcurrency, nextConcurrency, type ConcurrencyState } from "../../lib/concurrency";
import { callsInSightOf } from "../../lib/timeEstimates";
import type { Outcome, Usage, WorkItem } from "../../validators";
import {
  chatCompletion,
  endedGeneration,
  GATEWAY_MAX_ATTEMPTS,
  GatewayError,
  type ChatResult,
  type ExchangeEvent,
  type GatewayConfig,
  timeoutFor,
} from "../gateway";
import { GENERATIONS_PER_REPORT, type CallGeneration } from "./callGenerations";
import { gatewayConfigForTest } from "../testGateway";
import { RECORD_ATTEMPTS, RecordBatcher } from "./recordBatcher";
import { workerLooks } from "./workerLook";
import { runFinalJuryStats } from "../jury/finalRun";
import { settleGenerateAllowance } from "../../lib/claimOrder";

function costOf(item: WorkItem, result: ChatResult): number {
  return result.promptTokens * item.promptPrice + result.completionTokens * item.completionPrice;
}

function addUsage(total: Usage, item: WorkItem, result: ChatResult): Usage {
  return {
    promptTokens: total.promptTokens + result.promptTokens,
    completionTokens: total.completionTokens + result.completionTokens,
    latencyMs: total.latencyMs + result.latencyMs,
    costUsd: total.costUsd + costOf(item, result),
  };
}

type Parsed = { ok: true; outcome: Outcome } | { ok: false; problem: string };

function parseReply(item: WorkItem, content: string, spent: Usage): Parsed {
  if (item.kind === "generate") {
    const reply = parseGenerationReply(content, item.answersWanted);
    // A reply that ignores the format is asked for again rather than guessed at.
    if (reply.malformed || reply.answers.length === 0) {
      return { ok: false, problem: `No JSON array of ${item.answersWanted} answers was found.` };
    }
    return { ok: true, outcome: { kind: "generated", answers: reply.answers, ...spent } };
  }
  if (item.scale === "ranking") {
    const reply = parseRankingReply(
      content,
      item.labels.map((entry) => entry.label),
    );
    if (reply.malformed) return { ok: false, problem: reply.reason };
    const byLabel = new Map(item.labels.map((entry) => [entry.label, entry.responseId]));
    const ranking = reply.ranking
      .map((label) => byLabel.get(label))
      .filter((id): id is Id<"responses"> => id !== undefined);
    return {
      ok: true,
      outcome: { kind: "ranked", ranking, explanation: reply.explanation, ...answerModelsOf(item), ...spent },
    };
  }
  const reply = parseRatingReply(content, item.criteria);
  if (reply.malformed) return { ok: false, problem: reply.reason };
  return {
    ok: true,
    outcome: { kind: "rated", scores: reply.scores, explanation: reply.explanation, ...answerModelsOf(item), ...spent },
  };
}

/** The judged answers' generators as the claim read them, handed back so the recording need not read them. */
function answerModelsOf(item: WorkItem) {
  return item.answerModels ? { answerModels: item.answerModels } : {};
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the gateway answered a request: its result, or a refusal (429) the pool sends again later. */
type Completion = ChatResult | { refused: true };

/**
 * One request with the spec's attempts on time-outs and server errors (GATEWAY_MAX_ATTEMPTS,
 * waits of 1 s, 2 s). A 429 with `deferRefusal` is returned at once, so the call frees its slot
 * and the pool sends it again when its controller allows (after the Retry-After, under the
 * lowered level) instead of the call waiting in its slot and coming back at 2 s and 4 s whatever
 * the level; without it, the 429 waits as long as the gateway asks and counts as an attempt.
 */
async function complete(
  config: GatewayConfig,
  request: { model: string; messages: ChatMessage[]; maxTokens: number; seed?: number },
  deferRefusal: boolean,
): Promise<Completion> {
  const once = { ...config, maxAttempts: 1 };
  const scale = config.backoffScale ?? 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await chatCompletion(once, request);
    } catch (error) {
      if (!(error instanceof GatewayError) || !error.retryable || attempt >= GATEWAY_MAX_ATTEMPTS) throw error;
      if (error.status === 429 && deferRefusal) return { refused: true };
      const retryAfter = (error as GatewayError & { retryAfterSeconds?: number }).retryAfterSeconds ?? 0;
      const waitSeconds = error.status === 429 ? Math.max(2 ** attempt, retryAfter) : 2 ** (attempt - 1);
      await sleep(waitSeconds * 1000 * scale);
    }
  }
}

/** Waits between looks at a dead worker's generation that has not ended yet (then every last one). */
const GENERATION_LOOK_WAITS_MS = [0, 250, 500, 1_000, 2_000];

/**
 * The result of the generation the call's last lease was waiting for, when it ran to its end
 * (a provider that does not stop a generation whose client went); null when it was stopped or
 * cannot be had: the call is made again. One not ended yet is waited for, up to the time the
 * call itself may take: its remaining time is less than a new request's, and it is paid already.
 */
async function priorResult(config: GatewayConfig, item: WorkItem, generationId: string): Promise<ChatResult | null> {
  const deadline = Date.now() + timeoutFor(config, item.maxTokens);
  for (let look = 0; Date.now() < deadline; look++) {
    await sleep(GENERATION_LOOK_WAITS_MS[Math.min(look, GENERATION_LOOK_WAITS_MS.length - 1)]!);
    const found = await endedGeneration(config, generationId);
    if (found === "stopped" || found === "unavailable") return null;
    if (found !== "unknown") return found.ended;
  }
  return null;
}

/**
 * One call: the gateway, the reply parsed, and one more request when the reply is unusable. A
 * first request refused with 429 (while `deferRefusal`) comes back as "refused": nothing spent,
 * the pool sends the call again. A call whose last worker died takes that worker's generation's
 * result when it ended (priorResult) instead of its first request.
 */
async function perform(
  item: WorkItem,
  gateway: { config: GatewayConfig } | { error: string },
  deferRefusal: boolean,
): Promise<Outcome | "refused"> {
  if ("error" in gateway)
    return { kind: "failed", error: gateway.error, promptTokens: 0, completionTokens: 0, latencyMs: 0, costUsd: 0 };
  const config = gateway.config;
  let spent: Usage = { promptTokens: 0, completionTokens: 0, latencyMs: 0, costUsd: 0 };
  let messages: ChatMessage[] = item.messages;
  let lastProblem = "";
  try {
    const prior = item.priorGeneration === undefined ? null : await priorResult(config, item, item.priorGeneration);
    for (let attempt = 0; attempt < 2; attempt++) {
      const request = {
        model: item.modelId,
        messages,
        maxTokens: item.maxTokens,
        ...(item.seed === undefined ? {} : { seed: item.seed }),
      };
      // Only the first request is handed back: a second one has a reply already paid for.
      const result =
        attempt === 0 && prior !== null ? prior : await complete(config, request, deferRefusal && attempt === 0);
      if ("refused" in result) return "refused";
      spent = addUsage(spent, item, result);
      const parsed = parseReply(item, result.content, spent);
      if (parsed.ok) return parsed.outcome;
      lastProblem = parsed.problem;
      messages = buildRetryMessages(item.messages, result.content, parsed.problem);
    }
    return { kind: "failed", error: `Malformed reply from ${item.modelId}: ${lastProblem}`, ...spent };
  } catch (error) {
    const message = error instanceof GatewayError ? error.message : `Unexpected error: ${String(error)}`;
    return { kind: "failed", error: message, ...spent };
  }
}

/** A count of calls per pair, and how many distinct pairs have one (with some more pairs). */
function pairCounter() {
  const counts = new Map<string, number>();
  return {
    add(pair: string | undefined) {
      if (pair !== undefined) counts.set(pair, (counts.get(pair) ?? 0) + 1);
    },
    remove(pair: string | undefined) {
      if (pair === undefined) return;
      const left = (counts.get(pair) ?? 1) - 1;
      if (left > 0) counts.set(pair, left);
      else counts.delete(pair);
    },
    pairsWith(more: readonly (string | undefined)[]): number {
      const pairs = new Set(counts.keys());
      for (const pair of more) if (pair !== undefined) pairs.add(pair);
      return pairs.size;
    },
  };
}

/** Most calls leased in one claim. */
export const CLAIM_BATCH = 32;
type RecordEntry = { callId: Id<"calls">; leaseId: string; outcome: Outcome };

/** What a pool worker asks its host (core/pipeline/hostLoop.ts). */
export type HostControl = {
  /** It may claim calls (the host's time is not up and it was not replaced). */
  claiming(): boolean;
  /** The host was not replaced. */
  alive(): boolean;
  /** It starts after a worker died: its first claim (or report, when it claims no more) sweeps the pairs. */
  recovering: boolean;
};
/** How often a worker reports its concurrency (and the test's progress is folded). */
const BEAT_MS = 1_000;
/** How soon at most a worker reports a pair whose answers are all in (for its judge calls). */
const PAIR_REPORT_MS = 100;
/** Times the pool sends a call again after a 429; then its requests wait in its slot (and may fail). */
const MAX_REFUSALS = 8;

/**
 * A worker: a bounded pool of gateway calls in flight, as many as the test's adaptive
 * controller allows (lib/concurrency.ts) within its share of the deployment's cap. Each call is
 * recorded in a batch with what lands beside it (recordBatcher.ts); free slots are filled by
 * batch claims. When its host's time is up, or the host was replaced, it stops claiming, lets its
 * calls land and returns with the test still served (the next host carries on); when the test
 * has nothing left, it ends through endWork.
 */
export async function runWorker(ctx: ActionCtx, testId: Id<"tests">, host: HostControl): Promise<void> {
  const settings = await ctx.runQuery(internal.runner.workerSettings, { testId });
  // A test set to stop when settled keeps few calls out (lib/claimOrder.ts settleInFlightCap).
  const capped = (share: number) => Math.min(share, settings.inFlightCap ?? share);
  const limits = { start: Math.max(1, settings.start), max: capped(settings.share) };
  const priors = Object.fromEntries((settings.latencyPriors ?? []).map(({ key, latencyMs }) => [key, latencyMs]));
  let state: ConcurrencyState = {
    ...initialConcurrency(limits),
    ...(settings.resume
      ? {
          level: settings.resume.level,
          backedOff: settings.resume.backedOff,
          ceiling: settings.resume.ceiling ?? null,
        }
      : {}),
  };
  const tally = { exchanges: 0, rateLimited: 0, timeouts: 0, serverErrors: 0 };
  // Its jury statistics and settle look, after its reports (workerLook.ts).
  const looks = workerLooks(ctx, testId, settings.stopsWhenSettled === true);
  /**
   * The controller hears each exchange: a success with its kind of call (model and call kind,
   * whose usual latency it is compared with), a 429 with the calls out when it came.
   */
  const onExchange = (event: ExchangeEvent, key: string) => {
    tally.exchanges++;
    if (event.kind === "rateLimited") tally.rateLimited++;
    if (event.kind === "timeout") tally.timeouts++;
    if (event.kind === "serverError") tally.serverErrors++;
    if (event.kind === "other") return;
    const heard =
      event.kind === "success"
        ? { ...event, key }
        : event.kind === "rateLimited"
          ? { ...event, inFlight: calling.size }
          : event;
    state = nextConcurrency(state, heard, limits, Date.now());
  };
  let gateway: { config: GatewayConfig } | { error: string } | null = null;
  /** Calls out or being recorded per pair (a test set to stop when settled counts its pairs in progress). */
  const busy = pairCounter();
  /** Gateway calls out (the pool's slots), and recordings of landed calls still running. */
  const calling = new Set<Promise<void>>();
  /** Each recording out, with when it was sent (a report folds only deltas created before the oldest). */
  const recording = new Map<Promise<void>, number>();
  let wake: () => void = () => {};
  /** Calls the gateway refused (429), sent again first when the controller allows; and how often each was. */
  const refused: WorkItem[] = [];
  const refusals = new Map<string, number>();
  /** The generation ids of the requests sent since the last report (callGenerations.ts). */
  const startedGenerations: CallGeneration[] = [];
  /** Each gateway call out: its kind of call (the controller's latency key) and when it was sent. */
  const outCalls = new Map<Promise<void>, { key: string; sentAt: number }>();
  const start = (item: WorkItem, claimed: boolean) => {
    const answering = item.kind === "generate" && item.pair !== undefined;
    if (claimed && answering) outByPair.set(item.pair!, (outByPair.get(item.pair!) ?? 0) + 1);
    busy.add(item.pair);
    const key = `${item.kind}:${item.modelId}`;
    const found = gateway!;
    // Its requests' generation ids go with the next report: a worker that dies leaves them behind.
    const onGeneration = (generationId: string) =>
      startedGenerations.push({ callId: item.callId, leaseId: item.leaseId, generationId });
    const own =
      "config" in found
        ? { config: { ...found.config, onExchange: (e: ExchangeEvent) => onExchange(e, key), onGeneration } }
        : found;
    const deferRefusal = (refusals.get(item.callId) ?? 0) < MAX_REFUSALS;
    const call: Promise<void> = perform(item, own, deferRefusal).then((outcome) => {
      // The slot is free the moment the call lands; its recording runs beside the next claims.
      calling.delete(call);
      outCalls.delete(call);
      if (outcome === "refused") {
        busy.remove(item.pair);
        refusals.set(item.callId, (refusals.get(item.callId) ?? 0) + 1);
        refused.push(item);
        wake();
        return;
      }
      const sentAt = Date.now();
      // Sent at once, or with what else lands while the worker's last recordings are out (recordBatcher.ts).
      const recorded: Promise<void> = batcher
        .add({ callId: item.callId, leaseId: item.leaseId, outcome })
        .then(() => {
          if (item.kind === "evaluate") judged = true;
          else generated.push(item); // a report gives its pair judge calls once none of the pair is out
        })
        .catch((error: unknown) => {
          // Its lease expires and the call is handed out again; the other calls go on.
          console.error(`Recording call ${item.callId} failed: ${String(error)}`);
        })
        .finally(() => {
          busy.remove(item.pair);
          if (answering) {
            const out = (outByPair.get(item.pair!) ?? 1) - 1;
            outByPair.set(item.pair!, out);
            if (out === 0) pairDone = true; // reported soon: its judge calls are the critical path
          }
          recording.delete(recorded);
          wake(); // judge calls may have appeared
        });
      recording.set(recorded, sentAt);
      wake();
    });
    calling.add(call);
    outCalls.set(call, { key, sentAt: Date.now() });
  };
  const batcher = new RecordBatcher<RecordEntry>(
    async (results) => {
      // The requests' generation ids go with the recordings (sent within milliseconds of a
      // landing), else with the next report: one not kept when the worker dies is paid twice.
      const started = startedGenerations.splice(0, GENERATIONS_PER_REPORT);
      try {
        return await ctx.runMutation(internal.runner.recordBatch, {
          results,
          concurrency: Math.max(1, calling.size),
          ...(started.length === 0 ? {} : { generations: { testId, started } }),
        });
      } catch (error) {
        startedGenerations.unshift(...started);
        throw error;
      }
    },
    (entry) => JSON.stringify(entry.outcome).length,
    () => sleep(100 + Math.random() * 400),
  );
  let running = true;
  /** The first report gives finished pairs their judge calls (a worker before may have died). */
  let sweep = host.recovering;
  let lastBeat = 0;
  /** Reports the controller's state and the exchanges since the last report. */
  let judged = false;
  let generated: WorkItem[] = [];
  /** A pair's last call held here was recorded since the last report. */
  let pairDone = false;
  /** Generation calls out (in flight or being recorded) per persona × topic pair. */
  const outByPair = new Map<string, number>();
  /** The report in flight inserts pairs' judge calls into the pending calls. */
  let creatingJudgeCalls = false;
  /** The last claim found fewer pending calls than it asked for. */
  let pendingRanShort = false;
  /**
   * The recorded answers whose pairs have no call held here out, taken for their judge calls: the
   * transaction that reads a pair's calls then meets none of their recordings (a conflict); the
   * rest wait for a later one.
   */
  const takePairsDone = () => {
    const ready = generated.filter((item) => (outByPair.get(item.pair ?? "") ?? 0) === 0);
    generated = generated.filter((item) => (outByPair.get(item.pair ?? "") ?? 0) > 0);
    return ready;
  };
  /** The worker claims: its claims give finished pairs their judge calls, not its reports. */
  const claimingNow = () => running && host.claiming();
  const report = async () => {
    // While the worker claims, its next claim gives finished pairs their judge calls and leases
    // them at once; a report does only when no claim follows (the host's time is up, or the end).
    const ready = claimingNow() ? [] : takePairsDone();
    creatingJudgeCalls = ready.length > 0;
    const exchanges = { ...tally, judged, generated: ready.map((item) => item.callId) };
    tally.exchanges = tally.rateLimited = tally.timeouts = tally.serverErrors = 0;
    judged = false;
    // A worker that claims sweeps in its first claim; one that does not, in its report.
    const sweeping = sweep && !claimingNow();
    const args = {
      testId,
      ...(sweeping ? { sweep: true } : {}),
      level: state.level,
      ...(state.ceiling === null ? {} : { ceiling: state.ceiling }),
      backedOff: state.backedOff,
      inFlight: calling.size,
      ...exchanges,
      settledBefore: Math.min(Date.now(), ...recording.values()),
      ...(startedGenerations.length === 0 ? {} : { generations: startedGenerations.splice(0, GENERATIONS_PER_REPORT) }),
      sight: callsInSightOf(state, outCalls.values(), allowedInFlight(state, limits, Date.now()), Date.now(), priors),
    };
    // A report that lost its conflict retries is sent again, as a recording is: the worker
    // does not die with its calls out (its pairs would get no judge calls).
    const send = async (left: number): Promise<{ running: boolean }> => {
      try {
        return await ctx.runMutation(internal.runner.beat, args);
      } catch (error) {
        if (left <= 0) throw error;
        await sleep(100 + Math.random() * 400);
        return await send(left - 1);
      }
    };
    const beat = await send(RECORD_ATTEMPTS - 1);
    if (beat.running) looks.reported(exchanges.judged, args.settledBefore);
    if (sweeping) sweep = false;
    running = beat.running && host.alive();
    if (beat.running) limits.max = capped(await ctx.runQuery(internal.runner.gatewayShare, {}));
  };
  /**
   * The report in flight: the pool goes on filling slots meanwhile (a report that folds the
   * counters or creates a pair's judge calls takes a while, and slots freed during it waited).
   * One at a time; its failure (after its retries) ends the worker, as an awaited one did.
   */
  let reporting: Promise<void> | null = null;
  const reportFailure: { failed: boolean; error?: unknown } = { failed: false };
  const reportNow = async () => {
    while (reporting) await reporting;
    await report();
  };
  for (;;) {
    if (reportFailure.failed) throw reportFailure.error;
    const dueNow =
      Date.now() - lastBeat >= BEAT_MS || (pairDone && !claimingNow() && Date.now() - lastBeat >= PAIR_REPORT_MS);
    if (dueNow && reporting === null) {
      pairDone = false;
      lastBeat = Date.now();
      reporting = report()
        .catch((error: unknown) => {
          Object.assign(reportFailure, { failed: true, error });
        })
        .finally(() => {
          reporting = null;
          wake(); // judge calls may have appeared; the test may have ended
        });
    }
    if (!host.alive()) running = false; // replaced: its calls were handed back
    const claiming = running && host.claiming();
    let free = running ? allowedInFlight(state, limits, Date.now()) - calling.size : 0;
    // Refused calls go first (they are leased already), also after the chunk's claims ended.
    for (; free > 0 && refused.length > 0; free--) start(refused.shift()!, false);
    if (!claiming) free = 0;
    // A claim that empties the pending calls reads their index to its end, where the report in
    // flight inserts judge calls: the two would conflict (and the claim retry). Those judge
    // calls are what it would claim next anyway, so it waits for the report (which wakes it).
    // A test set to stop when settled reads its pending judge calls to their end at nearly every
    // claim (it takes them first): it always waits for such a report.
    if (reporting && creatingJudgeCalls && (pendingRanShort || settings.stopsWhenSettled === true)) free = 0;
    if (free > 0) {
      const wanted = Math.min(free, CLAIM_BATCH);
      // A test set to stop when settled takes a new pair's answers only while few pairs are in
      // progress here (lib/claimOrder.ts): calls out, or answers landed and not yet reported.
      const maxGenerate = settings.stopsWhenSettled
        ? settleGenerateAllowance(busy.pairsWith(generated.map((item) => item.pair)), settings.generators ?? 1)
        : undefined;
      // Finished pairs get their judge calls in the claim, which leases them first.
      const pairsDone = reporting && creatingJudgeCalls ? [] : takePairsDone().map((item) => item.callId);
      const items = await ctx.runMutation(internal.runner.claimBatch, {
        testId,
        max: wanted,
        ...(maxGenerate === undefined ? {} : { maxGenerate }),
        ...(pairsDone.length === 0 ? {} : { pairsDone }),
        ...(sweep ? { sweep: true } : {}),
      });
      sweep = false;
      pendingRanShort = items.length < wanted;
      // The deployment's key, or the owner's own key decrypted here (never in a query result).
      if (items.length > 0 && gateway === null) {
        const found = await gatewayConfigForTest(ctx, testId);
        gateway = found;
      }
      for (const item of items) start(item, true);
      if (items.length === wanted) continue; // there may be more to claim
      if (items.length === 0 && calling.size === 0) {
        if (recording.size === 0 && generated.length > 0) {
          lastBeat = Date.now();
          await reportNow(); // the last pairs' judge calls, claimed next
          continue;
        }
        if (reporting) {
          await reporting; // it may give pairs their judge calls
          continue;
        }
        if (recording.size === 0) break; // nothing pending, nothing out
        await Promise.all(recording.keys()); // their judge calls, if any, are claimed next
        continue;
      }
    } else if (calling.size === 0 && !claiming && (refused.length === 0 || !running)) {
      break;
    }
    // Until a call lands or is recorded (a slot frees, or judge calls appear), a report is due,
    // or a Retry-After pause ends.
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const due = pairDone && !claimingNow() ? PAIR_REPORT_MS : BEAT_MS;
    const paused = state.pausedUntil > Date.now() ? state.pausedUntil - Date.now() : Infinity;
    // (A report in flight wakes the loop when it ends.)
    const untilDue = reporting ? BEAT_MS : due - (Date.now() - lastBeat);
    await Promise.race([woken, sleep(Math.max(10, Math.min(paused, untilDue)))]);
  }
  await Promise.all(calling);
  await Promise.all(recording.keys());
  await reportNow(); // the last exchanges, and whether the test still runs
  await looks.idle();
  // Replaced, or the host's time is up while the test runs: the next host carries on.
  if (!host.alive() || (running && !host.claiming())) return;
  const latencies = Object.entries(state.kinds).map(([key, kind]) => ({ key, averageMs: kind.averageMs }));
  const ended = await ctx.runMutation(internal.runner.endWork, { testId, latencies, runsFinalStats: true });
  // The test it ended gets its full statistics here, in the host's action: ten tests ending
  // together took ten scheduled-job slots with a statistics job each (core/jury/finalRun.ts).
  if (ended.finalStats) await runFinalJuryStats(ctx, testId);
}
