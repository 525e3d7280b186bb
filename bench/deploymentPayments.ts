// What bench/deployment.ts reads of the gateway's bill (dev/gateway/streaming.ts): generations
// completed (paid in full), cancelled by their client (a killed action's streamed calls, billed for
// the prompt and the tokens streamed so far), and whether any call of the tests was completed,
// and so paid, twice.
import type { Id } from "../convex/_generated/dataModel";
import type { startBackend } from "../dev/backend/server";
import type { GatewayStats } from "../dev/gateway/server";

type TestBackend = Awaited<ReturnType<typeof startBackend>>["t"];

export type BillMark = { at: number; completed: number; cancelled: number; completedUsd: number; cancelledUsd: number };

export function billMark(stats: GatewayStats): BillMark {
  return {
    at: Date.now(),
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

/** A request first completed this soon after a kill was finished for a client that had gone. */
const AFTER_KILL_MS = 1_000;
/**
 * A request first completed this soon before a kill had its last bytes on their way: the
 * client reads them an event-loop turn or two later (this process's delay: p99 ~30 ms on a quiet
 * machine), and a kill meanwhile closes the connection. A trace of such calls (deployment.md) saw
 * them reach the dead worker as an abort error, 20 ms after the gateway's end.
 */
const IN_TRANSIT_MS = 50;

/**
 * The requests completed twice since `since` (needs the gateway's `logCompletions`), split by when
 * their first completion came: within AFTER_KILL_MS after a kill (the gateway finished it after the
 * killed action had closed its connection: it learns of a closed connection only when the close
 * reaches it, and nothing the client does can stop that), within IN_TRANSIT_MS before one (its
 * answer was on its way when the connection closed), or otherwise (an answer that could have
 * reached the product and was made again).
 */
export function completedTwice(stats: GatewayStats, since: number, killTimes: readonly number[]) {
  const afterKill: number[] = [];
  const inTransit: number[] = [];
  let otherwise = 0;
  for (const times of stats.completionTimes?.values() ?? []) {
    const own = times.filter((time) => time >= since);
    if (own.length < 2) continue;
    const first = own[0]!;
    const before = killTimes.filter((time) => time <= first).at(-1);
    const after = killTimes.find((time) => time > first);
    if (before !== undefined && first - before <= AFTER_KILL_MS) afterKill.push(first - before);
    else if (after !== undefined && after - first <= IN_TRANSIT_MS) inTransit.push(after - first);
    else otherwise += own.length - 1;
  }
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  return { afterKill: sorted(afterKill), inTransit: sorted(inTransit), otherwise };
}

/**
 * The bill since `before`: a line to print and the target "no call completed twice": the gateway
 * completed exactly the tests' calls (`testCalls`, null while a test still runs); with the
 * gateway's completion log, also the twice-completed requests split by completedTwice.
 */
export function billSince(
  stats: GatewayStats,
  before: BillMark,
  testCalls: number | null,
  killTimes: readonly number[] = [],
) {
  const now = billMark(stats);
  const completed = now.completed - before.completed;
  const cancelled = now.cancelled - before.cancelled;
  const cancelledUsd = now.cancelledUsd - before.cancelledUsd;
  const totalUsd = now.completedUsd - before.completedUsd + cancelledUsd;
  const twice = testCalls === null ? null : completed - testCalls;
  const share = totalUsd > 0 ? (cancelledUsd / totalUsd) * 100 : 0;
  const split = stats.completionTimes === null ? null : completedTwice(stats, before.at, killTimes);
  const range = (values: readonly number[]) => (values.length > 0 ? ` (${values[0]}–${values.at(-1)} ms)` : "");
  const splitLine =
    split === null
      ? ""
      : `; completed twice: ${split.afterKill.length} first completed after a kill${range(split.afterKill)} ` +
        `(finished after their client had gone), ${split.inTransit.length} just before one${range(split.inTransit)} ` +
        `(their answer on its way), ${split.otherwise} otherwise (answers the product could have had)`;
  return {
    line:
      `gateway generations: ${completed} completed (paid in full) for ${testCalls ?? "?"} calls of the tests` +
      `${twice === null ? " (not all ended)" : `: ${twice} completed twice`}; ${cancelled} cancelled by their client ` +
      `(killed actions' streams), billed $${cancelledUsd.toFixed(4)} = ${share.toFixed(2)}% of the run's gateway bill ` +
      `$${totalUsd.toFixed(4)}${splitLine}`,
    lostAnswers:
      split === null || twice === null
        ? null
        : {
            name: "no answer that could have reached the product made again (first completed neither just after a kill nor just before one)",
            figure:
              `${split.otherwise} of ${twice} completed twice (${split.afterKill.length} first completed after their ` +
              `client was killed, ${split.inTransit.length} on their way at a kill)`,
            pass: split.otherwise === 0,
          },
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
