// The worker host's action (runner.host; core/pipeline/host.ts keeps its row): one action serving
// every running test's pool worker (worker.ts) at once, so ten running tests hold one
// scheduled-job slot, not ten. It beats on its row, starts a worker for each test marked served,
// restarts a test's worker that failed for good (its leased calls handed back first), and after
// the chunk of time `workerChunkMs` lets its workers' calls land and continues in a new action.
import { internal } from "../../_generated/api";
import type { Id } from "../../_generated/dataModel";
import type { ActionCtx } from "../../_generated/server";
import { HOST_BEAT_MS } from "./host";
import { gatedContext, withSlotRetries } from "./hostCalls";
import { runWorker, type HostControl } from "./worker";

/** How often the host looks for tests to serve. */
const HOST_POLL_MS = 500;
/** A worker that failed waits this long before it is restarted. */
const RESTART_PAUSE_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runHost(ctx: ActionCtx, epoch: number, recovering: boolean): Promise<void> {
  const began = Date.now();
  // The workers share a few of the deployment's slots (hostCalls.ts); the host's own few calls
  // (its heartbeat above all) do not queue behind theirs; their recordings go first.
  const workerCtx = gatedContext(ctx, { first: [internal.runner.recordBatch] });
  const { chunkMs } = await withSlotRetries(() => ctx.runQuery(internal.runner.hostSettings, {}));
  const beat = () => withSlotRetries(() => ctx.runMutation(internal.runner.hostBeat, { epoch }));
  let alive = await beat();
  let lastBeat = Date.now();
  const timeLeft = () => Date.now() - began < chunkMs;
  const serving = new Map<Id<"tests">, Promise<void>>();
  /** Tests whose worker failed: their next worker sweeps their pairs. */
  const failed = new Set<Id<"tests">>();
  const serve = (testId: Id<"tests">) => {
    const control: HostControl = {
      claiming: () => alive && timeLeft(),
      alive: () => alive,
      recovering: recovering || failed.delete(testId),
    };
    const worker = runWorker(workerCtx, testId, control)
      .catch(async (error: unknown) => {
        // Its report failed for good: its calls go back to pending and a new worker takes them.
        console.error(`The worker of test ${testId} failed: ${String(error)}`);
        failed.add(testId);
        await sleep(RESTART_PAUSE_MS);
        await workerCtx.runMutation(internal.runner.handBack, { testId }).catch(() => undefined);
      })
      .finally(() => {
        serving.delete(testId);
        wake(); // the host may have nothing left to serve, or the test a worker to restart
      });
    serving.set(testId, worker);
  };
  let wake = () => {};
  try {
    while (alive && timeLeft()) {
      if (Date.now() - lastBeat >= HOST_BEAT_MS) {
        alive = await beat();
        lastBeat = Date.now();
        if (!alive) break;
      }
      const served = await withSlotRetries(() => ctx.runQuery(internal.runner.servedTests, {}));
      for (const testId of served) if (!serving.has(testId)) serve(testId);
      // Nothing to serve: it ends (the next test that needs a worker starts a new host).
      if (serving.size === 0 && (await withSlotRetries(() => ctx.runMutation(internal.runner.endHost, { epoch }))))
        return;
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), sleep(HOST_POLL_MS)]);
    }
  } catch (error) {
    // The host fails: its workers stop claiming (the supervisor replaces it and hands their calls back).
    alive = false;
    throw error;
  }
  // Replaced, or time is up: the workers stop claiming and their calls land.
  // It beats meanwhile: calls that take tens of seconds to land must not make it look dead.
  while (serving.size > 0) {
    await Promise.race([Promise.all(serving.values()), sleep(HOST_BEAT_MS)]);
    if (alive && serving.size > 0) alive = await beat();
  }
  if (alive) await withSlotRetries(() => ctx.runMutation(internal.runner.continueHost, { epoch }));
}
