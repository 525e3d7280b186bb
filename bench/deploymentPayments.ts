// What bench/deployment.ts reads of the gateway's bill (dev/gateway/streaming.ts): generations
// completed (paid in full), cancelled by their client (a killed action's streamed calls, billed for
// the prompt and the tokens streamed so far), and whether any call of the tests was completed,
// and so paid, twice.
import type { Id } from "../convex/_generated/dataModel";
import type { startBackend } from "../dev/backend/server";
import type { GatewayStats } from "../dev/gateway/server";

type TestBackend = Awaited<ReturnType<typeof startBackend>>["t"];

export type BillMark = { completed: number; cancelled: number; completedUsd: number; cancelledUsd: number };

export function billMark(stats: GatewayStats): BillMark {
  return {
    completed: stats.completed,
    cancelled: stats.cancelled,
    completedUsd: stats.billed.completed.costUsd,
    cancelledUsd: stats.billed.cancelled.costUsd,
  };
}

/** The tests' calls (each made once, by the product's count): the generations the gateway should complete. */
export async function callsOfTests(t: TestBackend, ids: readonly Id<"tests">[]): Promise<number> {
  return (await t.run(async (ctx) => {
    let calls = 0;
    for (const id of ids) calls += Number((await ctx.db.get("tests", id))?.totalCalls ?? 0);
    return calls;
  })) as number;
}

/**
 * The bill since `before`: a line to print and the target "no call completed twice": the gateway
 * completed exactly the tests' calls (`testCalls`, null while a test still runs).
 */
export function billSince(stats: GatewayStats, before: BillMark, testCalls: number | null) {
  const now = billMark(stats);
  const completed = now.completed - before.completed;
  const cancelled = now.cancelled - before.cancelled;
  const cancelledUsd = now.cancelledUsd - before.cancelledUsd;
  const totalUsd = now.completedUsd - before.completedUsd + cancelledUsd;
  const twice = testCalls === null ? null : completed - testCalls;
  const share = totalUsd > 0 ? (cancelledUsd / totalUsd) * 100 : 0;
  return {
    line:
      `gateway generations: ${completed} completed (paid in full) for ${testCalls ?? "?"} calls of the tests` +
      `${twice === null ? " (not all ended)" : `: ${twice} completed twice`}; ${cancelled} cancelled by their client ` +
      `(killed actions' streams), billed $${cancelledUsd.toFixed(4)} = ${share.toFixed(2)}% of the run's gateway bill ` +
      `$${totalUsd.toFixed(4)}`,
    target: {
      name: "no call completed twice (paid twice)",
      figure:
        twice === null
          ? `${completed} completed, tests not all ended`
          : `${completed} completed for ${testCalls} calls (${twice} twice); ${cancelled} cancelled, ${share.toFixed(2)}% of the bill`,
      pass: twice === 0,
    },
  };
}
