/**
 * Faults the local backend injects on request, to show the product survives what a deployment
 * does to it. `MJ_FAULTS=kill-actions:0.05` kills that share of actions, each chosen at random,
 * at a random moment of its first `KILL_WITHIN_MS` (20 s) (a deploy, a restart or an out-of-memory kill
 * ends an action wherever it is): from then on every call it makes into the deployment
 * (`ctx.runQuery`, `ctx.runMutation`, `ctx.runAction`, scheduling) throws, and its caller (a
 * scheduled job: failed, not retried, as Convex runs a scheduled action at most once) hears it
 * failed at once. What it had committed stays committed.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type Faults = {
  killActions: number;
  /** A killed action dies within this long of its start (uniformly). */
  killWithinMs: number;
};

/** A killed action dies within this long of its start (uniformly). */
const KILL_WITHIN_MS = 20_000;
export const KILLED_MESSAGE = "The action was killed (MJ_FAULTS kill-actions).";

export function faultsFromEnv(value: string | undefined): Faults {
  const faults: Faults = { killActions: 0, killWithinMs: KILL_WITHIN_MS };
  for (const part of (value ?? "").split(",").filter((text) => text.trim() !== "")) {
    const [name, share] = part.trim().split(":");
    const number = Number(share);
    if (name !== "kill-actions" || !(number >= 0 && number <= 1))
      throw new Error(`MJ_FAULTS takes kill-actions:<share from 0 to 1>, not "${part}"`);
    faults.killActions = number;
  }
  return faults;
}

/** Settable by tests and benches that start a backend in-process (main.ts reads MJ_FAULTS). */
export const faults: Faults = faultsFromEnv(process.env.MJ_FAULTS);
/** Actions killed since start (benches print it). */
export const faultCounts = { killedActions: 0 };

const actionLife = new AsyncLocalStorage<{ killed: boolean }>();

/**
 * Throws inside an action that was killed: every syscall of it, and of the queries and mutations
 * it runs (convex-test runs them in the action's own context), fails from then on.
 */
export function assertActionAlive(): void {
  if (actionLife.getStore()?.killed) throw new Error(KILLED_MESSAGE);
}

/** Runs an action, killing it at a random moment when the dice say so. */
export async function withActionFaults<T>(call: () => Promise<T>, killed: () => T): Promise<T> {
  if (faults.killActions <= 0 || Math.random() >= faults.killActions) return await call();
  const life = { killed: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const kill = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      life.killed = true;
      faultCounts.killedActions++;
      resolve(killed());
    }, Math.random() * faults.killWithinMs);
    timer.unref();
  });
  try {
    return await Promise.race([actionLife.run(life, call), kill]);
  } finally {
    clearTimeout(timer);
  }
}
