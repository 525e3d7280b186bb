/**
 * Faults the local backend injects on request, to show the product survives what a deployment
 * does to it. `MJ_FAULTS=kill-actions:0.05` kills running actions at that rate per second of their
 * run: each action's life is drawn from an exponential law (mean 1 ÷ 0.05 = 20 s), as a deploy, a
 * restart or an out-of-memory kill strikes at a moment in time, not at an action's start, so a long
 * action (the worker host runs minutes) is the likeliest to die and a short one (a recording
 * of 50 ms dies 0.25% of the time at 0.05). From its death on, every call it makes into the
 * deployment (`ctx.runQuery`, `ctx.runMutation`, `ctx.runAction`, scheduling) throws, and its
 * caller (a scheduled job: failed, not retried, as Convex runs a scheduled action at most once)
 * hears it failed at once. What it had committed stays committed; requests it had sent elsewhere
 * (the gateway) still get their answers, which nobody records.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type Faults = {
  /** Kills per second of an action's run (0: none). */
  killActions: number;
};

export const KILLED_MESSAGE = "The action was killed (MJ_FAULTS kill-actions).";

export function faultsFromEnv(value: string | undefined): Faults {
  const faults: Faults = { killActions: 0 };
  for (const part of (value ?? "").split(",").filter((text) => text.trim() !== "")) {
    const [name, rate] = part.trim().split(":");
    const number = Number(rate);
    if (name !== "kill-actions" || !(number >= 0 && Number.isFinite(number)))
      throw new Error(`MJ_FAULTS takes kill-actions:<kills per second of an action's run, e.g. 0.05>, not "${part}"`);
    faults.killActions = number;
  }
  return faults;
}

/** Settable by tests and benches that start a backend in-process (main.ts reads MJ_FAULTS). */
export const faults: Faults = faultsFromEnv(process.env.MJ_FAULTS);
/**
 * Actions killed since start, and the calls of killed actions refused (each fails the function it
 * was made from: benches tell these failures from the product's).
 */
export const faultCounts = { killedActions: 0, refusedCalls: 0 };

const actionLife = new AsyncLocalStorage<{ killed: boolean }>();

/**
 * Throws inside an action that was killed: every syscall of it, and of the queries and mutations
 * it runs (convex-test runs them in the action's own context), fails from then on.
 */
export function assertActionAlive(): void {
  if (actionLife.getStore()?.killed) {
    faultCounts.refusedCalls++;
    throw new Error(KILLED_MESSAGE);
  }
}

/** When an action started now dies (ms from its start), at `killActions` per second; Infinity: never. */
export function lifetimeMs(rate = faults.killActions, draw = Math.random()): number {
  if (rate <= 0) return Infinity;
  // Exponential: the chance of dying in each second of the run is the same, 1 - e^-rate.
  return (-Math.log(1 - draw) / rate) * 1000;
}

/** Runs an action, killing it at the moment its drawn lifetime ends if it is still running. */
export async function withActionFaults<T>(call: () => Promise<T>, killed: () => T): Promise<T> {
  const life = lifetimeMs();
  if (life === Infinity) return await call();
  const state = { killed: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const kill = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      state.killed = true;
      faultCounts.killedActions++;
      resolve(killed());
    }, life);
    timer.unref();
  });
  try {
    return await Promise.race([actionLife.run(state, call), kill]);
  } finally {
    clearTimeout(timer);
  }
}
