// The results page's subscribed queries stay bounded: a test of 5,000 responses (15,000
// evaluations) is served in about the time of one of 50. Both tests live in one database, so
// the in-memory store's per-query overhead is the same for both. For each query the page
// subscribes to (results.get, the first 20 responses, the first 10 evaluations) and for the
// history list it prints the median time and the documents read, for the big and the small
// test, and their ratios. On load the page subscribes to results.get alone (the two lists are
// closed by default and subscribe when opened).
//
// Note on the times: convex-test (which the offline backend runs on) answers an index range by
// collecting and sorting the whole range before taking a page, so a paginated query over 15,000
// evaluations costs it more than one over 150 even though the function reads 10 of them. A
// Convex deployment walks the index and stops after the page; the documents-read column is
// what it does, and it is the same for both tests.
//   npx tsx bench/results-query.ts [--iterations 60]
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { convexTest } from "convex-test";
import { TransactionMetricsTracker } from "convex-test/dist/transactionMetrics.js";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { seedFinishedTest, type Runner } from "../convex/finishedTests.fixture";
import schema from "../convex/schema";
import { collectModules } from "../dev/backend/modules";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "60" } } });
const iterations = Number(values.iterations);
const BIG = 5_000;
const SMALL = 50;
const EVALUATIONS_PER_RESPONSE = 3;

// Count the documents each function reads, as convex-test's limit tracker sees them.
let documentsRead = 0;
const trackRead = TransactionMetricsTracker.prototype.trackRead;
TransactionMetricsTracker.prototype.trackRead = function (this: TransactionMetricsTracker, bytes: number) {
  documentsRead++;
  trackRead.call(this, bytes);
};

const t = convexTest({
  schema,
  modules: collectModules(fileURLToPath(new URL("../convex", import.meta.url))),
  transactionLimits: true, // Convex's limits, enforced; also turns the read tracking on
});
const runner = t as unknown as Runner;
type Viewer = { testId: Id<"tests">; as: ReturnType<typeof t.withIdentity> };

async function userWith(email: string, responses: number): Promise<Viewer> {
  const userId = await t.run(async (ctx) => await ctx.db.insert("users", { email, testCount: 1 }));
  const testId = await seedFinishedTest(runner, {
    userId,
    responses,
    evaluationsPerResponse: EVALUATIONS_PER_RESPONSE,
    chunk: 1000,
  });
  const sessionId = await t.run((ctx) =>
    ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
  );
  return { testId, as: t.withIdentity({ subject: `${userId}|${sessionId}` }) };
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function reads(run: () => Promise<unknown>): Promise<number> {
  documentsRead = 0;
  await run();
  return documentsRead;
}

/**
 * Median times of the two cases, run alternately so that whatever else the machine is doing
 * falls on both alike.
 */
async function measurePair(bigRun: () => Promise<unknown>, smallRun: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) {
    await bigRun();
    await smallRun();
  }
  const bigSamples: number[] = [];
  const smallSamples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    for (const [run, samples] of [
      [bigRun, bigSamples],
      [smallRun, smallSamples],
    ] as const) {
      const started = performance.now();
      await run();
      samples.push(performance.now() - started);
    }
  }
  return {
    big: { ms: median(bigSamples), reads: await reads(bigRun) },
    small: { ms: median(smallSamples), reads: await reads(smallRun) },
  };
}

async function measure(run: () => Promise<unknown>): Promise<{ ms: number; reads: number }> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return { ms: median(samples), reads: await reads(run) };
}

const QUERIES: [string, (viewer: Viewer) => Promise<unknown>][] = [
  ["results.get", (viewer) => viewer.as.query(api.results.get, { testId: viewer.testId })],
  [
    "results.responses (20)",
    (viewer) =>
      viewer.as.query(api.results.responses, { testId: viewer.testId, paginationOpts: { numItems: 20, cursor: null } }),
  ],
  [
    "results.evaluations (10)",
    (viewer) =>
      viewer.as.query(api.results.evaluations, {
        testId: viewer.testId,
        paginationOpts: { numItems: 10, cursor: null },
      }),
  ],
];

const seeding = performance.now();
const big = await userWith("big@bench.dev", BIG);
const small = await userWith("small@bench.dev", SMALL);
console.log(
  `seeded ${BIG + SMALL} responses and ${(BIG + SMALL) * EVALUATIONS_PER_RESPONSE} evaluations in ${((performance.now() - seeding) / 1000).toFixed(1)} s; median of ${iterations} runs\n`,
);

const pad = (text: string, width: number) => text.padEnd(width);
console.log(`${pad("query", 28)}${pad(`${BIG} resp.`, 22)}${pad(`${SMALL} resp.`, 22)}time ratio`);
let bigTotal = 0;
let smallTotal = 0;
for (const [name, run] of QUERIES) {
  const { big: b, small: s } = await measurePair(
    () => run(big),
    () => run(small),
  );
  bigTotal += b.ms;
  smallTotal += s.ms;
  console.log(
    `${pad(name, 28)}${pad(`${b.ms.toFixed(2)} ms, ${b.reads} docs`, 22)}${pad(`${s.ms.toFixed(2)} ms, ${s.reads} docs`, 22)}${(b.ms / s.ms).toFixed(2)}`,
  );
}
// Raw Responses and Evaluations are closed by default: their pages subscribe once opened.
console.log(
  `${pad("page with both lists open", 28)}${pad(`${bigTotal.toFixed(2)} ms`, 22)}${pad(`${smallTotal.toFixed(2)} ms`, 22)}${(bigTotal / smallTotal).toFixed(2)}`,
);
const history = await measurePair(
  () => big.as.query(api.history.list, {}),
  () => small.as.query(api.history.list, {}),
);
const historyBig = history.big;
const historySmall = history.small;
console.log(
  `${pad("history.list", 28)}${pad(`${historyBig.ms.toFixed(2)} ms, ${historyBig.reads} docs`, 22)}${pad(`${historySmall.ms.toFixed(2)} ms, ${historySmall.reads} docs`, 22)}${(historyBig.ms / historySmall.ms).toFixed(2)}`,
);
const collectAll = await measure(() =>
  t.run(
    async (ctx) =>
      (
        await ctx.db
          .query("responses")
          .withIndex("by_test", (q) => q.eq("testId", big.testId))
          .collect()
      ).length,
  ),
);
console.log(
  `\nfor contrast, one unbounded read of all ${BIG} responses: ${collectAll.ms.toFixed(2)} ms, ${collectAll.reads} docs`,
);
