// Pipeline throughput through the offline stack: one test of ≥ 200 gateway calls with per-test
// concurrency C, run twice: against the dev gateway at a fixed latency L with no client
// watching (ideal ceil(calls / C) × L), and closer to real use, with the catalog's own
// latencies and a subscribed monitor and results client (ideal: the calls' summed latency / C).
// Prints the wall time, the ideal and their ratio (target ≤ 1.25) for both, and the backend
// work per gateway call; all of it twice, with the database in memory and in a data folder
// (SQLite, as npm start keeps it), and how far the store's ratios are from the in-memory ones
// (target: within 5%). --store or --memory runs only that one. --timeline prints, for the
// fixed-latency run, where the wall time beyond the ideal went: creation to the first gateway
// call, the slots left idle while calls ran (C minus the calls in flight, sampled every 2 ms),
// and the last call's landing to "completed"; the catalog run is skipped. A run's wall time ends
// at the test's completedAt. The dev gateway answers from its own thread (as a real one answers
// from another machine); --gateway-in-process runs it on the bench's event loop, as `npm start`.
//   npx tsx bench/pipeline.ts [--latency 200] [--concurrency 8] [--store | --memory] [--timeline]
//     [--gateway-in-process]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ConvexClient } from "convex/browser";
import { api } from "../convex/_generated/api";
import { DEFAULT_RANKING_PROMPT } from "../convex/lib/prompts";
import { invocationCounts } from "../dev/backend/modules";
import { syscallCounts } from "../dev/backend/runtime";
import { startGateway } from "../dev/gateway/server";
import { internal } from "../convex/_generated/api";
import { startThreadGateway } from "./gatewayThread";
import { signedInClient, signUpBenchUser, startBenchBackend, topicsOf } from "./helpers";

const { values } = parseArgs({
  options: {
    latency: { type: "string", default: "200" },
    concurrency: { type: "string", default: "8" },
    store: { type: "boolean", default: false },
    memory: { type: "boolean", default: false },
    timeline: { type: "boolean", default: false },
    "gateway-in-process": { type: "boolean", default: false },
  },
});
const latencyMs = Number(values.latency);
const concurrency = Number(values.concurrency);

const GENERATORS = [
  "openai/gpt-4o-mini",
  "anthropic/claude-3.5-haiku",
  "google/gemini-2.0-flash-001",
  "deepseek/deepseek-chat",
  "mistralai/mistral-small-3.1-24b-instruct",
];
const EVALUATORS = ["meta-llama/llama-3.3-70b-instruct", "qwen/qwen-2.5-72b-instruct"];
const PERSONAS = 5;
const TOPICS = 6;

/**
 * The dev gateway on its own thread, as a real gateway answers on another machine, unless
 * --gateway-in-process (as `npm start` runs it): then building its replies and serving its HTTP
 * queue behind the backend's work on this process's one event loop.
 */
const inProcess = values["gateway-in-process"];
const gateway = inProcess
  ? await (async () => {
      const local = await startGateway({ port: 0, fixedLatencyMs: latencyMs });
      return {
        url: local.url,
        stats: local.stats,
        configure: async (settings: Record<string, unknown>) => void Object.assign(local.settings, settings),
        close: () => local.close(),
      };
    })()
  : await startThreadGateway({ port: 0, fixedLatencyMs: latencyMs });

type Run = { status: string; wallMs: number; calls: number; idealMs: number; ratio: number };

type Sample = { at: number; inFlight: number; calls: number };

/** The gateway's calls in flight every 2 ms (it runs in this process), from `started`. */
function sampleGateway(started: number) {
  const samples: Sample[] = [];
  const callsBefore = gateway.stats.chatCalls;
  const take = () =>
    samples.push({
      at: performance.now() - started,
      inFlight: gateway.stats.inFlight,
      calls: gateway.stats.chatCalls - callsBefore,
    });
  const timer = setInterval(take, 2);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** Where the fixed run's wall time beyond ceil(calls / C) × L went. */
function printTimeline(samples: Sample[], createdMs: number, wallMs: number) {
  const first = samples.find((s) => s.calls > 0)?.at ?? 0;
  const total = samples.at(-1)?.calls ?? 0;
  const lastLanded = samples.find((s) => s.calls === total && s.inFlight === 0)?.at ?? wallMs;
  let idleSlotMs = 0;
  const gaps: { from: number; ms: number; lowest: number }[] = [];
  let gap: { from: number; ms: number; lowest: number } | null = null;
  for (let i = 1; i < samples.length; i++) {
    const [a, b] = [samples[i - 1]!, samples[i]!];
    if (a.at < first || a.at >= lastLanded) continue;
    const dt = b.at - a.at;
    idleSlotMs += Math.max(0, concurrency - a.inFlight) * dt;
    if (a.inFlight < concurrency) {
      gap ??= { from: a.at, ms: 0, lowest: a.inFlight };
      gap.ms += dt;
      gap.lowest = Math.min(gap.lowest, a.inFlight);
    } else if (gap) {
      gaps.push(gap);
      gap = null;
    }
  }
  if (gap) gaps.push(gap);
  const ms = (n: number) => `${Math.round(n)} ms`;
  const most = Math.max(...samples.map((s) => s.inFlight));
  console.log(`timeline (fixed run): tests.create returned at ${ms(createdMs)}, first gateway call at ${ms(first)}`);
  console.log(
    `  calls running ${ms(lastLanded - first)}; slots idle ${ms(idleSlotMs)} slot-time = ${ms(idleSlotMs / concurrency)} of all ${concurrency} slots, in ${gaps.length} gaps below ${concurrency} in flight; at most ${most} in flight`,
  );
  const longest = [...gaps].sort((x, y) => y.ms - x.ms).slice(0, 8);
  console.log(`  longest gaps: ${longest.map((g) => `@${ms(g.from)} ${ms(g.ms)} (down to ${g.lowest})`).join(", ")}`);
  console.log(`  last call landed at ${ms(lastLanded)}, completed at ${ms(wallMs)} (+${ms(wallMs - lastLanded)})`);
}

/** Both runs on a fresh backend, its database in a data folder (`store`) or in memory. */
async function measure(store: boolean) {
  const dataDir = store ? mkdtempSync(join(tmpdir(), "mj-bench-pipeline-")) : undefined;
  const backend = await startBenchBackend(gateway.url, dataDir);
  const t = backend.t;
  const clients: ConvexClient[] = [];
  try {
    // The catalog at once, then the run's latency again.
    await gateway.configure({ fixedLatencyMs: 0, latencyScale: 0 });
    await t.action(internal.models.refresh, {});
    await gateway.configure({ fixedLatencyMs: latencyMs, latencyScale: 1 });
    // A fresh backend: no settings yet.
    await t.run(async (ctx) => {
      await ctx.db.insert("settings", { key: "perTestConcurrency", value: concurrency });
      // At a fixed concurrency: the adaptive controller starts at C and the deployment allows C.
      await ctx.db.insert("settings", { key: "maxGatewayConcurrency", value: concurrency });
    });
    const { userId, sessionId, as } = await signUpBenchUser(t);

    const configuration = {
      name: "Pipeline benchmark",
      taskType: "general",
      userPrompt: "Write a short product description.",
      personas: Array.from({ length: PERSONAS }, (_, i) => ({
        id: `p${i}`,
        name: `Persona ${i}`,
        description: "A voice",
        systemPrompt: `You are writer number ${i}.`,
      })),
      topics: topicsOf(TOPICS),
      generatorModels: GENERATORS.map((id) => ({ id, name: id })),
      evaluatorModels: EVALUATORS.map((id) => ({ id, name: id })),
      responsesPerTopic: 1,
      rankingPrompt: DEFAULT_RANKING_PROMPT,
      evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
      scoringParameters: { scale: "ranking" as const, includeExplanations: true },
    };

    /** One run: the test created, watched by the monitor and results pages when asked, to its end. */
    const run = async (watched: boolean): Promise<Run> => {
      syscallCounts.clear();
      invocationCounts.clear();
      const callsBefore = gateway.stats.chatCalls;
      const startedAt = Date.now();
      const started = performance.now();
      const timeline = values.timeline && !watched ? sampleGateway(started) : undefined;
      const { testId } = await as.mutation(api.tests.create, { configuration });
      const createdMs = performance.now() - started;
      if (watched) {
        const client = await signedInClient(backend, userId, sessionId);
        clients.push(client);
        client.onUpdate(api.tests.monitor, { testId }, () => {});
        client.onUpdate(api.results.get, { testId }, () => {});
        client.onUpdate(api.results.responses, { testId, paginationOpts: { numItems: 20, cursor: null } }, () => {});
      }
      // Polled rarely: the wall time ends at the test's own completedAt (the backend runs in this
      // process, on this clock), so the poll neither adds CPU beside the run nor its interval.
      let test = (await t.run(async (ctx) => await ctx.db.get("tests", testId)))!;
      while (test.status !== "completed" && test.status !== "failed") {
        await new Promise((resolve) => setTimeout(resolve, 250));
        test = (await t.run(async (ctx) => await ctx.db.get("tests", testId)))!;
      }
      const wallMs = ((test.completedAt as number | undefined) ?? Date.now()) - startedAt;
      const calls = gateway.stats.chatCalls - callsBefore;
      if (timeline) printTimeline(timeline.stop(), createdMs, wallMs);
      // Fixed latency: ceil(calls/C) × L. Catalog latencies: what the calls took, C at a time.
      const idealMs = watched
        ? (test.totalLatencyMs as number) / concurrency
        : Math.ceil(calls / concurrency) * latencyMs;
      return { status: test.status as string, wallMs, calls, idealMs, ratio: wallMs / idealMs };
    };

    await gateway.configure({ fixedLatencyMs: latencyMs });
    const fixed = await run(false);
    const count = (...ops: string[]) => ops.reduce((sum, op) => sum + (syscallCounts.get(op) ?? 0), 0);
    const writes = count("1.0/insert", "1.0/shallowMerge", "1.0/replace", "1.0/remove");
    const invocations = [...invocationCounts.values()].reduce((sum, n) => sum + n, 0);
    const byFunction = [...invocationCounts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} ${n}`)
      .join(", ");
    await gateway.configure({ fixedLatencyMs: null });
    const real = values.timeline ? undefined : await run(true);

    console.log(
      `store: ${dataDir ? "SQLite (data folder)" : "in memory"}; concurrency C = ${concurrency}; dev gateway ${inProcess ? "in this process" : "on its own thread"}`,
    );
    console.log(`fixed latency L = ${latencyMs} ms, no client: test ${fixed.status}, ${fixed.calls} gateway calls`);
    console.log(
      `  wall time ${(fixed.wallMs / 1000).toFixed(2)} s, ideal ceil(calls/C)×L ${(fixed.idealMs / 1000).toFixed(2)} s, ratio ${fixed.ratio.toFixed(3)}  (target ≤ 1.25)`,
    );
    if (real) {
      console.log(
        `catalog latencies, monitor and results subscribed: test ${real.status}, ${real.calls} gateway calls`,
      );
      console.log(
        `  wall time ${(real.wallMs / 1000).toFixed(2)} s, ideal Σlatency/C ${(real.idealMs / 1000).toFixed(2)} s, ratio ${real.ratio.toFixed(3)}`,
      );
    }
    console.log(
      `function invocations ${(invocations / fixed.calls).toFixed(2)} per gateway call (${invocations} in all: ${byFunction})`,
    );
    console.log(`documents written    ${(writes / fixed.calls).toFixed(2)} per gateway call (${writes} in all)`);
    return { fixed, real };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await backend.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  const stores = values.store ? [true] : values.memory ? [false] : [false, true];
  const results = [];
  for (const store of stores) results.push(await measure(store));
  if (results.length === 2) {
    const [memory, store] = results as [Awaited<ReturnType<typeof measure>>, Awaited<ReturnType<typeof measure>>];
    const compare = (name: string, a: Run, b: Run) =>
      console.log(
        `${name} ratio: in memory ${a.ratio.toFixed(3)}, store ${b.ratio.toFixed(3)}, store ${((b.ratio / a.ratio - 1) * 100).toFixed(1)}% from in memory (target within 5%)`,
      );
    compare("fixed latency, no client          ", memory.fixed, store.fixed);
    if (memory.real && store.real) compare("catalog latencies, clients watching", memory.real, store.real);
  }
} finally {
  await gateway.close();
}
