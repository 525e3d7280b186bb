// Ten tests at once on the local backend: one test of 1,200 gateway calls
// runs alone for a while, then ten such tests are released together, as settled payments
// release them. A proxy in front of the dev gateway (catalog latencies) notes each test's calls
// (each test's prompt names it). Prints each test's first call after its release (target
// ≤ 2 s) and the calls per minute of the ten together against one alone (target ≥ 3 ×).
//   npx tsx bench/concurrent.ts [--tests 10] [--window 30] [--store]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { startGateway } from "../dev/gateway/server";
import {
  benchTestConfiguration,
  cancelTests,
  refreshCatalog,
  setMaxProcessing,
  signUpBenchUser,
  startBenchBackend,
  startMarkingProxy,
} from "./helpers";

const { values } = parseArgs({
  options: {
    tests: { type: "string", default: "10" },
    window: { type: "string", default: "30" },
    store: { type: "boolean", default: false },
  },
});
const TESTS = Number(values.tests);
const WINDOW_MS = Number(values.window) * 1000;

const gateway = await startGateway({ port: 0 });
const gatewayUrl = new URL(gateway.url);
const released = new Map<number, number>();
const calls = new Map<number, number[]>();

// Notes when each test's calls arrive.
const proxy = await startMarkingProxy(gatewayUrl, (index) => {
  if (!calls.has(index)) calls.set(index, []);
  calls.get(index)!.push(performance.now());
});

const dataDir = values.store ? mkdtempSync(join(tmpdir(), "mj-bench-concurrent-")) : undefined;
const backend = await startBenchBackend(proxy.url, dataDir);
const t = backend.t;
const testIds: Id<"tests">[] = [];
try {
  const models = await refreshCatalog(t, gateway);
  const { as } = await signUpBenchUser(t);
  const setProcessing = (value: number) => setMaxProcessing(t, value);
  // Queued but held back, as tests are while their payment is open.
  await setProcessing(0);
  // 10 generators × 10 personas × 8 topics = 800 generation calls, 5 judges × 80 = 400 rankings.
  const create = async (index: number) => {
    const { testId } = await as.mutation(api.tests.create, {
      configuration: benchTestConfiguration(index, models, { topics: 8, responsesPerTopic: 2 }),
    });
    testIds.push(testId);
  };
  const callsWithin = (index: number, from: number, to: number) =>
    (calls.get(index) ?? []).filter((at) => at >= from && at < to).length;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // One test alone.
  await create(TESTS);
  released.set(TESTS, performance.now());
  await setProcessing(1);
  await sleep(WINDOW_MS);
  const aloneEnd = performance.now();
  const alonePerMinute = (callsWithin(TESTS, released.get(TESTS)!, aloneEnd) / WINDOW_MS) * 60_000;
  await t.run(async (ctx) => {
    await ctx.db.patch("tests", testIds[0]!, { status: "cancelled" });
  });
  await sleep(2000);

  // Ten together.
  for (let index = 0; index < TESTS; index++) await create(index);
  const releasedAt = performance.now();
  for (let index = 0; index < TESTS; index++) released.set(index, releasedAt);
  await setProcessing(TESTS + 1);
  await sleep(WINDOW_MS);
  const togetherEnd = performance.now();
  let together = 0;
  const firsts: number[] = [];
  for (let index = 0; index < TESTS; index++) {
    together += callsWithin(index, releasedAt, togetherEnd);
    const first = (calls.get(index) ?? []).find((at) => at >= releasedAt);
    firsts.push(first === undefined ? Infinity : first - releasedAt);
  }
  const togetherPerMinute = (together / WINDOW_MS) * 60_000;
  firsts.sort((a, b) => a - b);
  const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "none");
  console.log(
    `store: ${dataDir ? "SQLite (data folder)" : "in memory"}; tests of 1,200 calls; catalog latencies; ${WINDOW_MS / 1000} s windows`,
  );
  console.log(`one test alone       ${alonePerMinute.toFixed(0)} calls/min`);
  console.log(
    `${TESTS} tests together     ${togetherPerMinute.toFixed(0)} calls/min = ${(togetherPerMinute / alonePerMinute).toFixed(2)} × one alone (target ≥ 3)`,
  );
  console.log(
    `first call after release: fastest ${seconds(firsts[0]!)}, median ${seconds(firsts[Math.floor(TESTS / 2)]!)}, slowest ${seconds(firsts[TESTS - 1]!)} (target ≤ 2 s)`,
  );
} finally {
  await cancelTests(t, testIds);
  await backend.close();
  await gateway.close();
  proxy.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
