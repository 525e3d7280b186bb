// The queries the pages of a running test subscribe, as they subscribe them (the results page,
// the monitor, the shared page: convex/pageSubscriptions.fixture.ts), measured with the local
// backend's meter: each query's re-runs per 10 gateway calls (per subscription) and bytes read,
// and the deployment's bytes read ÷ written. bench/deployment.ts may open them with watchTestPages
// and print them with printPageSubscriptions; run alone, this file runs one test of 192 calls
// (10 generators × 4 personas × 4 topics × 2 answers, 2 judges ranking, 2 checks) with the pages
// open and prints the figures.
// --topic-prompt-chars pads each topic's prompt (at most 10,000 characters): a configuration the
// size of a real test's, which a page query reading the test's row reads on every re-run.
//   npx tsx bench/subscriptions.ts [--latency-scale 0.05] [--max-seconds 300] [--topic-prompt-chars 0]
import { parseArgs } from "node:util";
import { ConvexClient } from "convex/browser";
import { WebSocket } from "ws";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { PAGE_QUERIES, subscribePages } from "../convex/pageSubscriptions.fixture";
import { meterDifference, meterTotal, type MeterReading } from "../dev/backend/meter";
import type { startBackend } from "../dev/backend/server";
import { startGateway } from "../dev/gateway/server";
import {
  benchTestConfiguration,
  cancelTests,
  refreshCatalog,
  setMaxProcessing,
  signedInClient,
  signUpBenchUser,
  startBenchBackend,
} from "./helpers";

type Backend = Awaited<ReturnType<typeof startBackend>>;

/** Opens every page subscription of the test on two clients (the owner's, an anonymous viewer's). */
export async function watchTestPages(
  backend: Backend,
  userId: string,
  sessionId: string,
  testId: Id<"tests">,
  shareId: string,
): Promise<{ close: () => Promise<void> }> {
  const owner = await signedInClient(backend, userId, sessionId);
  const anonymous = new ConvexClient(backend.url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    logger: false,
    unsavedChangesWarning: false,
  });
  const pages = subscribePages(owner, anonymous, testId, shareId);
  return {
    close: async () => {
      pages.unsubscribe();
      await Promise.all([owner.close(), anonymous.close()]);
    },
  };
}

/**
 * Prints each page query's re-runs per 10 gateway calls (per subscription) and bytes read, and
 * bytes read ÷ written over every function of `reading`; returns the worst query's re-runs per
 * 10 calls and the ratio.
 */
export function printPageSubscriptions(reading: MeterReading, gatewayCalls: number) {
  let worst = { query: "", per10: 0 };
  console.log(`page subscriptions (re-runs per 10 gateway calls per subscription; bytes read in all):`);
  for (const { query, pages, subscriptions } of PAGE_QUERIES) {
    const entry = reading[query];
    const per10 = ((entry?.subscriptionReruns ?? 0) / subscriptions / Math.max(1, gatewayCalls)) * 10;
    if (per10 > worst.per10) worst = { query, per10 };
    console.log(
      `  ${query.padEnd(26)} ${per10.toFixed(2).padStart(6)}   ${((entry?.bytesRead ?? 0) / 1024).toFixed(0).padStart(7)} KiB   (${pages})`,
    );
  }
  const total = meterTotal(reading);
  const readOverWritten = total.bytesRead / Math.max(1, total.bytesWritten);
  console.log(
    `  bytes read ÷ written: ${readOverWritten.toFixed(2)} (${(total.bytesRead / 1024 ** 2).toFixed(1)} MiB ÷ ${(total.bytesWritten / 1024 ** 2).toFixed(1)} MiB)`,
  );
  return { worst, readOverWritten };
}

async function main() {
  const { values } = parseArgs({
    options: {
      "latency-scale": { type: "string", default: "0.05" },
      "max-seconds": { type: "string", default: "300" },
      "topic-prompt-chars": { type: "string", default: "0" },
    },
  });
  const gateway = await startGateway({ port: 0 });
  const backend = await startBenchBackend(gateway.url);
  const { t } = backend;
  const testIds: Id<"tests">[] = [];
  let pages: { close: () => Promise<void> } | null = null;
  try {
    const models = await refreshCatalog(t, gateway, 12);
    gateway.settings.latencyScale = Number(values["latency-scale"]);
    const { userId, sessionId, as } = await signUpBenchUser(t);
    await setMaxProcessing(t, 0);
    const { testId } = await as.mutation(api.tests.create, {
      configuration: {
        ...benchTestConfiguration(0, models, {
          topics: 4,
          responsesPerTopic: 2,
          personas: 4,
          judges: 2,
          topicPrompt: (i) => `Scenario ${i}. ${"Some context. ".repeat(Number(values["topic-prompt-chars"]) / 14)}`,
        }),
        checks: [
          { id: "short", kind: "length", unit: "words", max: 60 },
          { id: "names", kind: "contains", value: "item" },
        ],
      },
    });
    testIds.push(testId);
    const shareId = "bench-subscriptions-share";
    await t.run(async (ctx) => {
      await ctx.db.insert("shares", { testId, userId, shareId, isActive: true });
    });
    pages = await watchTestPages(backend, userId, sessionId, testId, shareId);
    await backend.settle();
    const before = backend.meter.read();
    const callsBefore = gateway.stats.chatCalls;
    const started = performance.now();
    await setMaxProcessing(t, 1);
    let status = "pending";
    while (!["completed", "failed", "cancelled"].includes(status)) {
      if (performance.now() - started > Number(values["max-seconds"]) * 1000) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = ((await t.run(async (ctx) => (await ctx.db.get("tests", testId))?.status)) as string) ?? "gone";
    }
    await backend.settle();
    const reading = meterDifference(backend.meter.read(), before);
    delete reading["(inline)"]; // the bench's own polling, not the product's
    const gatewayCalls = gateway.stats.chatCalls - callsBefore;
    console.log(
      `one test, ${gatewayCalls} gateway calls, ${status} in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
        `(latency scale ${values["latency-scale"]}), every page of it open`,
    );
    const { worst } = printPageSubscriptions(reading, gatewayCalls);
    console.log(
      `bytes read per re-run: ${PAGE_QUERIES.map(({ query }) => {
        const entry = reading[query];
        return `${query} ${entry?.subscriptionReruns ? (entry.bytesRead / entry.subscriptionReruns / 1024).toFixed(1) : "-"} KiB`;
      }).join(", ")}`,
    );
    console.log(
      `target: no page query re-runs more than once per 10 calls: ${worst.per10 <= 1 ? "PASS" : "FAIL"} ` +
        `(worst ${worst.query || "none"} ${worst.per10.toFixed(2)})`,
    );
  } finally {
    await pages?.close();
    await cancelTests(t, testIds);
    await backend.close();
    await gateway.close();
  }
}

if (process.argv[1]?.endsWith("subscriptions.ts")) await main();
