// Ten of the largest allowed tests (10 generators × 10 personas × 10 topics, 5 judges) released
// at once on the local backend, as a payment releases a test: the time from their release to
// each test's first gateway call. A small proxy in front of the dev gateway notes when each
// test's first request arrives (each test's prompt names it).
//   npx tsx bench/dispatch.ts [--tests 10]
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

const { values } = parseArgs({ options: { tests: { type: "string", default: "10" } } });
const TESTS = Number(values.tests);
const TIMEOUT_MS = 180_000;

const gateway = await startGateway({ port: 0, fixedLatencyMs: 200 });
const gatewayUrl = new URL(gateway.url);
let releasedAt = 0;
const firstCallAt = new Map<number, number>();

// Notes the first gateway call of each test after the release.
const proxy = await startMarkingProxy(gatewayUrl, (index) => {
  if (releasedAt > 0 && !firstCallAt.has(index)) firstCallAt.set(index, performance.now() - releasedAt);
});
const backend = await startBenchBackend(proxy.url);
const t = backend.t;
const testIds: Id<"tests">[] = [];
try {
  const models = await refreshCatalog(t, gateway);
  const { as } = await signUpBenchUser(t);
  // Queued but held back, as tests are while their payment is open.
  await setMaxProcessing(t, 0);

  for (let index = 0; index < TESTS; index++) {
    const { testId } = await as.mutation(api.tests.create, {
      configuration: benchTestConfiguration(index, models, { topics: 10, responsesPerTopic: 4 }),
    });
    testIds.push(testId);
  }

  // The release: what a settled payment does (its job queued, a dispatch scheduled).
  releasedAt = performance.now();
  await setMaxProcessing(t, TESTS);
  while (firstCallAt.size < TESTS && performance.now() - releasedAt < TIMEOUT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const times = [...firstCallAt.values()].sort((a, b) => a - b);
  const seconds = (ms: number | undefined) => (ms === undefined ? "—" : `${(ms / 1000).toFixed(2)} s`);
  console.log(`${TESTS} tests of 1,500 calls each released at once; first gateway call after release:`);
  console.log(`first test  ${seconds(times[0])}`);
  console.log(`median      ${seconds(times[Math.floor(times.length / 2)])}`);
  console.log(
    `last test   ${seconds(times[TESTS - 1])}${times.length < TESTS ? ` (only ${times.length} of ${TESTS} within ${TIMEOUT_MS / 1000} s)` : ""}`,
  );
} finally {
  await cancelTests(t, testIds);
  await backend.close();
  await gateway.close();
  proxy.close();
}
