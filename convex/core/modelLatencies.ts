// The catalog's latencies: each run's observed gateway latency per model and kind of call
// (tables/modelLatencies.ts), written when its worker ends, read for the setup page's time
// estimate and as a new run's forecast before its own calls have landed.
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DEFAULT_CALL_LATENCY_MS, latencyKey } from "../lib/timeEstimates";

/** A model's latency is the mean of its last few runs'. */
const RUNS_AVERAGED = 5;
/** Far above any test's models; keeps the writes of one ending bounded. */
const MAX_RECORDED = 100;

type Kind = "generate" | "evaluate";

function parseKey(key: string): { kind: Kind; modelId: string } | null {
  const [kind, ...rest] = key.split(":");
  if ((kind !== "generate" && kind !== "evaluate") || rest.length === 0) return null;
  return { kind, modelId: rest.join(":") };
}

/** Stores a run's observed latencies (the worker's controller's averages by `kind:model` key). */
export async function recordModelLatencies(
  ctx: MutationCtx,
  latencies: readonly { key: string; averageMs: number }[],
  now: number,
): Promise<void> {
  for (const { key, averageMs } of latencies.slice(0, MAX_RECORDED)) {
    const parsed = parseKey(key);
    if (parsed === null || !Number.isFinite(averageMs) || averageMs <= 0) continue;
    await ctx.db.insert("modelLatencies", { ...parsed, latencyMs: Math.round(averageMs), at: now });
  }
}

/** Each model's latency for each kind, by key: the mean of its last runs', else the default for the kind. */
export async function catalogLatencies(
  ctx: QueryCtx,
  models: { generators: readonly string[]; judges: readonly string[] },
): Promise<Record<string, number>> {
  const latencies: Record<string, number> = {};
  const add = async (kind: Kind, modelId: string) => {
    const key = latencyKey(kind, modelId);
    if (key in latencies) return;
    const runs = await ctx.db
      .query("modelLatencies")
      .withIndex("by_model_kind", (q) => q.eq("modelId", modelId).eq("kind", kind))
      .order("desc")
      .take(RUNS_AVERAGED);
    latencies[key] =
      runs.length === 0
        ? DEFAULT_CALL_LATENCY_MS[kind]
        : Math.round(runs.reduce((sum, run) => sum + run.latencyMs, 0) / runs.length);
  };
  for (const modelId of models.generators) await add("generate", modelId);
  for (const modelId of models.judges) await add("evaluate", modelId);
  return latencies;
}
