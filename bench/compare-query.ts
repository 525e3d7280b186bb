// The compare page's subscribed query (compare.get) reads each test's kept jury rows, never its
// answers: for two tests of 2,000 answers (6,000 judgements) each it prints the median time,
// the documents and bytes read, against two tests of 50 answers and against the results page's
// results.get on one big test. Ratios, not a timed test.
//   npx tsx bench/compare-query.ts [--iterations 20]
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { convexTest } from "convex-test";
import { TransactionMetricsTracker } from "convex-test/dist/transactionMetrics.js";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { seedFinishedTest, type Runner } from "../convex/finishedTests.fixture";
import schema from "../convex/schema";
import { collectModules } from "../dev/backend/modules";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "20" } } });
const iterations = Number(values.iterations);
const BIG = 2_000;
const SMALL = 50;
const EVALUATIONS_PER_RESPONSE = 3;

let documentsRead = 0;
let bytesRead = 0;
const trackRead = TransactionMetricsTracker.prototype.trackRead;
TransactionMetricsTracker.prototype.trackRead = function (this: TransactionMetricsTracker, bytes: number) {
  documentsRead++;
  bytesRead += bytes;
  trackRead.call(this, bytes);
};

const t = convexTest({
  schema,
  modules: collectModules(fileURLToPath(new URL("../convex", import.meta.url))),
  transactionLimits: true,
});
const runner = t as unknown as Runner;

const userId = await t.run(async (ctx) => await ctx.db.insert("users", { email: "bench@bench.dev", testCount: 4 }));
const sessionId = await t.run((ctx) =>
  ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
);
const as = t.withIdentity({ subject: `${userId}|${sessionId}` });

async function seeded(responses: number): Promise<Id<"tests">> {
  const testId = await seedFinishedTest(runner, {
    userId,
    responses,
    evaluationsPerResponse: EVALUATIONS_PER_RESPONSE,
    chunk: 1000,
  });
  await t.run((ctx) => ctx.db.insert("testStats", { testId, evaluationsSeen: 0, pending: true, dirty: false }));
  await t.action(internal.juryStats.recompute, { testId });
  return testId;
}

const seeding = performance.now();
const [bigA, bigB, smallA, smallB] = [await seeded(BIG), await seeded(BIG), await seeded(SMALL), await seeded(SMALL)];
console.log(
  `seeded 2 × ${BIG} and 2 × ${SMALL} answers (${EVALUATIONS_PER_RESPONSE} judgements each) with their jury statistics in ${((performance.now() - seeding) / 1000).toFixed(1)} s; median of ${iterations} runs\n`,
);

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(run: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  documentsRead = 0;
  bytesRead = 0;
  await run();
  return { ms: median(samples), docs: documentsRead, kb: bytesRead / 1024 };
}

const rows: [string, () => Promise<unknown>][] = [
  [`compare.get, 2 × ${BIG} answers`, () => as.query(api.compare.get, { a: bigA, b: bigB })],
  [`compare.get, 2 × ${SMALL} answers`, () => as.query(api.compare.get, { a: smallA, b: smallB })],
  [`results.get, 1 × ${BIG} answers`, () => as.query(api.results.get, { testId: bigA })],
  [
    `compare.answers, one pair each`,
    () =>
      as.query(api.compare.answers, {
        a: bigA,
        b: bigB,
        pairA: { personaId: "p1", topicId: "t1" },
        pairB: { personaId: "p1", topicId: "t1" },
      }),
  ],
];
const results = new Map<string, { ms: number; docs: number; kb: number }>();
for (const [name, run] of rows) {
  const figures = await measure(run);
  results.set(name, figures);
  console.log(
    `${name.padEnd(34)}${`${figures.ms.toFixed(2)} ms`.padEnd(12)}${`${figures.docs} docs`.padEnd(12)}${figures.kb.toFixed(0)} KB`,
  );
}
const [big, small, resultsGet] = [...results.values()];
console.log(
  `\ncompare.get big / small: ${(big!.ms / small!.ms).toFixed(2)}× time; compare.get big / results.get big: ${(big!.ms / resultsGet!.ms).toFixed(2)}× time`,
);
