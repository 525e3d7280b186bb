// What bench/deployment.ts checks beyond its meter: each test's counts and costs against its rows,
// and how soon a dead worker host was replaced (from its `workerHosts` row and its scheduled job).
import type { Id } from "../convex/_generated/dataModel";
import type { startBackend } from "../dev/backend/server";

type TestBackend = Awaited<ReturnType<typeof startBackend>>["t"];

/** One host that died and when the next began beating (Date.now times); replacedAt null while not yet. */
export type Replacement = { epoch: number; diedAt: number; replacedAt: number | null };

/**
 * Watches the worker host: `sample` (called every few hundred milliseconds) notes a host whose
 * scheduled action failed (killed) or that was replaced without ending, and when its successor
 * first beat.
 */
export function hostReplacements() {
  const replacements: Replacement[] = [];
  let last: { epoch: number; seenAt: number; ended: boolean; failedAt: number | null } | null = null;
  return {
    replacements,
    async sample(t: TestBackend): Promise<void> {
      const now = Date.now();
      const row = (await t.run(async (ctx) => {
        const host = await ctx.db.query("workerHosts").first();
        if (!host) return null;
        const job = host.jobId
          ? await ctx.db.system.get("_scheduled_functions", host.jobId as Id<"_scheduled_functions">)
          : null;
        return {
          epoch: host.epoch,
          seenAt: host.seenAt,
          ended: host.ended === true,
          failed: job?.state.kind === "failed",
        };
      })) as { epoch: number; seenAt: number; ended: boolean; failed: boolean } | null;
      if (!row) return;
      const open = replacements.find((entry) => entry.replacedAt === null);
      if (open && row.epoch > open.epoch && row.seenAt > 0) open.replacedAt = row.seenAt;
      if (last && row.epoch > last.epoch && !last.ended && !replacements.some((entry) => entry.epoch === last!.epoch))
        // Replaced after falling silent (no failed job seen): it died after its last beat.
        replacements.push({
          epoch: last.epoch,
          diedAt: last.failedAt ?? last.seenAt,
          replacedAt: row.seenAt > 0 ? row.seenAt : null,
        });
      if (row.failed && !replacements.some((entry) => entry.epoch === row.epoch))
        replacements.push({ epoch: row.epoch, diedAt: now, replacedAt: null });
      last = {
        epoch: row.epoch,
        seenAt: row.seenAt,
        ended: row.ended,
        failedAt: last?.epoch === row.epoch ? last.failedAt : null,
      };
      if (row.failed && last.failedAt === null) last.failedAt = now;
    },
  };
}

/**
 * Each test's counts and cost against its rows: every call succeeded once (unique keys), the
 * answers and judgements counted are those expected and those stored, and the cost counted is the
 * sum of the stored rows' costs (a result recorded twice, or lost, breaks one of them).
 */
export async function exactness(backendT: TestBackend, ids: readonly Id<"tests">[]) {
  // One transaction a test: ten tests' rows together pass Convex's 16 MiB read limit.
  const problems: string[] = [];
  for (const [index, testId] of ids.entries()) {
    const found = (await backendT.run(async (ctx) => {
      const found: string[] = [];
      const test = await ctx.db.get("tests", testId);
      if (!test) return found;
      const calls = await ctx.db
        .query("calls")
        .withIndex("by_test_status", (q) => q.eq("testId", testId))
        .collect();
      const responses = await ctx.db
        .query("responses")
        .withIndex("by_test_pair", (q) => q.eq("testId", testId))
        .collect();
      const evaluations = await ctx.db
        .query("evaluations")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .collect();
      const rowsCost = [...responses, ...evaluations].reduce((sum, row) => sum + Number(row.costUsd), 0);
      const unsucceeded = calls.filter((call) => call.status !== "succeeded").length;
      const keys = new Set(calls.map((call) => call.key)).size;
      const wrong = [
        test.status !== "completed" ? `status ${test.status}` : "",
        unsucceeded > 0 ? `${unsucceeded} calls not succeeded` : "",
        keys !== calls.length ? `${calls.length - keys} calls twice` : "",
        test.responsesCount !== test.expectedResponses || responses.length !== test.expectedResponses
          ? `answers ${test.responsesCount} counted, ${responses.length} stored, ${test.expectedResponses} expected`
          : "",
        test.evaluationsCount !== test.expectedEvaluations || evaluations.length !== test.expectedEvaluations
          ? `judgements ${test.evaluationsCount} counted, ${evaluations.length} stored, ${test.expectedEvaluations} expected`
          : "",
        Math.abs(rowsCost - Number(test.totalCostUsd)) > 1e-9 * Math.max(1, Number(test.totalCostUsd))
          ? `cost ${test.totalCostUsd} counted, ${rowsCost} in its rows`
          : "",
      ].filter((text) => text !== "");
      if (wrong.length > 0) found.push(`test ${index}: ${wrong.join(", ")}`);
      return found;
    })) as string[];
    problems.push(...found);
  }
  return { problems, checked: ids.length };
}
