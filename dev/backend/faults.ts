/**
 * Faults the local backend injects on request, to show the product survives what a deployment
 * does to it. `MJ_FAULTS=kill-actions:0.05` kills running actions at that rate per second of their
 * run: each action's life is drawn from an exponential law (mean 1 ÷ 0.05 = 20 s), as a deploy, a
 * restart or an out-of-memory kill strikes at a moment in time, not at an action's start, so a long
 * action (the worker host runs minutes) is the likeliest to die and a short one (a recording
 * of 50 ms dies 0.25% of the time at 0.05). From its death on, every call it makes into the
 * deployment (`ctx.runQuery`, `ctx.runMutation`, `ctx.runAction`, scheduling) throws, and its
 * caller (a scheduled job: failed, not retried, as Convex runs a scheduled action at most once)
 * hears it failed at once. What it had committed stays committed, and a query or mutation it had
 * sent before the kill runs to its end (it runs in the deployment, not in the action: a recording
 * sent just before commits, and nobody hears it did). Its connections close at the
 * moment of the kill, as a process kill or an isolate's teardown closes them: every `fetch` it
 * has under way (the gateway's streamed completions among them) is aborted, and the other end
 * sees the client disconnect (a streamed generation stops there, dev/gateway/streaming.ts); one
 * it starts later fails at once. Its code still runs on here after the kill (a real kill stops
 * it), but nothing it does reaches the deployment or the network any more.
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
 * was made from: benches tell these failures from the product's); when each kill came (ms epoch).
 */
export const faultCounts = { killedActions: 0, refusedCalls: 0, killTimes: [] as number[] };

type ActionLife = { killed: boolean; connections: AbortController };

const actionLife = new AsyncLocalStorage<ActionLife>();

/**
 * Wraps the process's `fetch` once, so that a fetch made inside a killable action also listens
 * to the action's own signal (aborted by the kill). Outside such an action it is the same fetch.
 */
function closeConnectionsOnKill(): void {
  const original = globalThis.fetch as typeof fetch & { closesOnKill?: true };
  if (original.closesOnKill) return;
  const guarded = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const life = actionLife.getStore();
    if (!life) return original(input, init);
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const signal = own ? AbortSignal.any([own, life.connections.signal]) : life.connections.signal;
    return original(input, { ...init, signal });
  };
  globalThis.fetch = Object.assign(guarded, { closesOnKill: true as const });
}

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

/**
 * Runs a query or mutation an action has just sent (`ctx.runQuery`, `ctx.runMutation`) apart from
 * the action's life: once sent, it runs in the deployment, not in the action, so the action's
 * death does not stop it (a mutation sent just before a kill commits, and the action never hears).
 */
export function apartFromAction<T>(run: () => T): T {
  return actionLife.exit(run);
}

/** When an action started now dies (ms from its start), at `killActions` per second; Infinity: never. */
export function lifetimeMs(rate = faults.killActions, draw = Math.random()): number {
  if (rate <= 0) return Infinity;
  // Exponential: the chance of dying in each second of the run is the same, 1 - e^-rate.
  return (-Math.log(1 - draw) / rate) * 1000;
}

/** The kills of the actions running now (killRunningActions). */
const running = new Set<() => void>();

/**
 * Kills every action running now, as a deploy or a restart of the deployment does: a test's
 * way to kill a worker host at a moment of its choosing (with calls in flight, say).
 */
export function killRunningActions(): number {
  const kills = [...running];
  for (const kill of kills) kill();
  return kills.length;
}

/**
 * Runs an action, killing it at the moment its drawn lifetime ends (or killRunningActions is
 * called) if it is still running.
 */
export async function withActionFaults<T>(call: () => Promise<T>, killed: () => T): Promise<T> {
  closeConnectionsOnKill();
  const life = lifetimeMs();
  const state: ActionLife = { killed: false, connections: new AbortController() };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let kill = () => {};
  const death = new Promise<T>((resolve) => {
    kill = () => {
      if (state.killed) return;
      state.killed = true;
      state.connections.abort(new Error(KILLED_MESSAGE));
      faultCounts.killedActions++;
      faultCounts.killTimes.push(Date.now());
      resolve(killed());
    };
    if (life !== Infinity) {
      timer = setTimeout(kill, life);
      timer.unref();
    }
  });
  running.add(kill);
  try {
    return await Promise.race([actionLife.run(state, call), death]);
  } finally {
    running.delete(kill);
    clearTimeout(timer);
  }
}
