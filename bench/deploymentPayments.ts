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
 * The requests completed twice since `since` (needs the gateway's `logCompletions`), split by when
 * their first completion came: within AFTER_KILL_MS after a kill (the gateway finished it after the
 * killed action had closed its connection: it learns of a closed connection only when the close
 * reaches it, and nothing the client does can stop that) or otherwise (an answer that reached, or
 * was on its way to, the product and was made again).
 */
export function completedTwice(stats: GatewayStats, since: number, killTimes: readonly number[]) {
  const afterKill: number[] = [];
  let otherwise = 0;
  for (const times of stats.completionTimes?.values() ?? []) {
    const own = times.filter((time) => time >= since);
    if (own.length < 2) continue;
    const kill = killTimes.filter((time) => time <= own[0]!).at(-1);
    if (kill !== undefined && own[0]! - kill <= AFTER_KILL_MS) afterKill.push(own[0]! - kill);
    else otherwise += own.length - 1;
  }
  return { afterKill: afterKill.sort((a, b) => a - b), otherwise };
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
  const splitLine =
    split === null
      ? ""
      : `; completed twice: ${split.afterKill.length} first completed ` +
        (split.afterKill.length > 0
          ? `${split.afterKill[0]}–${split.afterKill.at(-1)} ms after a kill (finished after their client had gone)`
          : "just after a kill") +
        `, ${split.otherwise} otherwise (answers the product could have had)`;
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
            name: "no answer that had reached the product made again (a request first completed before a kill, or with none near)",
            figure: `${split.otherwise} of ${twice} completed twice (the other ${split.afterKill.length} first completed after their client was killed)`,
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
