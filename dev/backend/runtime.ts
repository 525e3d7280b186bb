import { AsyncLocalStorage } from "node:async_hooks";
import { promisify } from "node:util";
import type { Value } from "convex/values";
import { assertActionAlive } from "./faults.js";
import { databaseCallStarts, transactionWantsTurn, turn } from "./transactions.js";
import { databaseWork } from "./userCode.js";
import { handlerHooks } from "./modules.js";
import type { FunctionKind } from "./modules.js";

/**
 * What one running backend needs to hear from inside convex-test: that a
 * function wrote, and which timers belong to it (so close() can cancel them).
 */
export type BackendHooks = {
  noteWrite(): void;
  /** A function scheduled job `jobId` for `at` (epoch ms); the backend runs it (scheduler.ts). */
  scheduled?(jobId: string, at: number): void;
  /** An action calls a query, mutation or action: it takes a slot like a client's call (engine.ts). */
  nestedCall?<T>(kind: FunctionKind, path: string, args: Record<string, Value>, work: () => Promise<T>): Promise<T>;
  readonly closed: boolean;
  readonly timers: Set<ReturnType<typeof setTimeout>>;
};

// An action's ctx.runQuery, ctx.runMutation and ctx.runAction go through the backend that runs it.
handlerHooks.nestedCall = (kind, path, args, work) => {
  const backend = backendStorage.getStore();
  return backend?.nestedCall ? backend.nestedCall(kind, path, args, work) : work();
};

/**
 * Every call the backend makes into convex-test runs inside this storage, and
 * async context follows promises and timers, so syscalls and the timers of
 * scheduled functions (even ones scheduled by scheduled functions) can tell
 * which backend they serve.
 */
export const backendStorage = new AsyncLocalStorage<BackendHooks>();

/**
 * The pagination journal of the subscribed query being evaluated: the end
 * cursor its `.paginate()` was pinned to by an earlier run, and the one this
 * run ended at. Pinning keeps a page's boundaries fixed while documents come
 * and go, as the real backend's query journals do.
 */
export type PaginationJournal = { endCursor: string | null; recorded: string | null };
export const journalStorage = new AsyncLocalStorage<PaginationJournal>();

/** While set, the timer convex-test arms for a job it schedules is not started. */
const suppressSchedulerTimers = new AsyncLocalStorage<true>();

async function queryPageWithJournal(
  journal: PaginationJournal,
  asyncSyscall: (op: string, jsonArgs: string) => Promise<string>,
  jsonArgs: string,
): Promise<string> {
  const args = JSON.parse(jsonArgs) as { endCursor?: string | null };
  if ((args.endCursor ?? null) === null && journal.endCursor !== null) {
    args.endCursor = journal.endCursor;
  }
  const result = await asyncSyscall("1.0/queryPage", JSON.stringify(args));
  const { continueCursor } = JSON.parse(result) as { continueCursor: string };
  journal.recorded = args.endCursor ?? continueCursor;
  return result;
}

// Syscalls that change the database, its files or the scheduled jobs.
const WRITE_SYSCALLS = new Set([
  "1.0/insert",
  "1.0/shallowMerge",
  "1.0/replace",
  "1.0/remove",
  "1.0/schedule",
  "1.0/cancel_job",
  "1.0/actions/schedule",
  "1.0/actions/cancel_job",
  "1.0/storageDelete",
  "1.0/storageStore",
  "storage/storeBlob",
]);

type ConvexSyscalls = {
  syscall: (op: string, jsonArgs: string) => string;
  asyncSyscall: (op: string, jsonArgs: string) => Promise<string>;
  jsSyscall: (op: string, args: Record<string, unknown>) => unknown;
};

let hooksInstalled = false;

/** Syscalls seen since start, by op name; benchmarks read writes and invocations from it. */
export const syscallCounts = new Map<string, number>();

function countSyscall(op: string) {
  syscallCounts.set(op, (syscallCounts.get(op) ?? 0) + 1);
}

/**
 * Observes convex-test from outside: wraps the `Convex` syscall global (which
 * convex-test installs on first `convexTest()` and the Convex runtime reads on
 * every call) and `setTimeout`, which convex-test's scheduler reads from
 * globalThis each time it schedules a function. Call after `convexTest()`.
 *
 * Each syscall of a query or mutation checks the time limit on its own code, and its work is
 * charged to no one (userCode.ts): convex-test does a syscall's work synchronously, between the
 * call and its return.
 */
export function installRuntimeHooks(): void {
  if (hooksInstalled) return;
  const global = globalThis as unknown as { Convex?: ConvexSyscalls };
  const original = global.Convex;
  if (!original) {
    throw new Error("convex-test has not installed the Convex global yet");
  }
  hooksInstalled = true;
  const noteIfWrite = (op: string) => {
    countSyscall(op);
    if (WRITE_SYSCALLS.has(op)) backendStorage.getStore()?.noteWrite();
  };
  global.Convex = {
    get syscall() {
      const syscall = original.syscall;
      return (op: string, jsonArgs: string) => {
        assertActionAlive();
        const clock = databaseCallStarts();
        const result = databaseWork(clock, () => syscall(op, jsonArgs));
        noteIfWrite(op);
        return result;
      };
    },
    get asyncSyscall() {
      const asyncSyscall = original.asyncSyscall;
      return async (op: string, jsonArgs: string) => {
        assertActionAlive();
        const clock = databaseCallStarts();
        if (transactionWantsTurn()) await turn();
        const backend = backendStorage.getStore();
        const scheduling = (op === "1.0/schedule" || op === "1.0/actions/schedule") && backend?.scheduled !== undefined;
        const journal = op === "1.0/queryPage" ? journalStorage.getStore() : undefined;
        const result = await databaseWork(clock, () =>
          scheduling
            ? // convex-test writes the job's document; the backend's scheduler runs it.
              suppressSchedulerTimers.run(true, () => asyncSyscall(op, jsonArgs))
            : journal
              ? queryPageWithJournal(journal, asyncSyscall, jsonArgs)
              : asyncSyscall(op, jsonArgs),
        );
        if (scheduling) {
          const { ts } = JSON.parse(jsonArgs) as { ts: number };
          backend?.scheduled?.(JSON.parse(result) as string, ts * 1000);
        }
        noteIfWrite(op);
        return result;
      };
    },
    get jsSyscall() {
      const jsSyscall = original.jsSyscall;
      return (op: string, args: Record<string, unknown>) => {
        const result = jsSyscall(op, args);
        noteIfWrite(op);
        return result;
      };
    },
  };

  // Assigned outside any function call, so this replaces the default that
  // convex-test's global proxy hands to its scheduler.
  const originalSetTimeout = globalThis.setTimeout;
  const trackedSetTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const backend = backendStorage.getStore();
    if (!backend) return originalSetTimeout(callback, ms, ...args);
    if (backend.closed) {
      // A stopped backend starts nothing new; hand back an inert timer.
      const inert = originalSetTimeout(() => {}, 0);
      return inert;
    }
    const handle = originalSetTimeout(
      (...callbackArgs: unknown[]) => {
        backend.timers.delete(handle);
        callback(...callbackArgs);
      },
      ms,
      ...args,
    );
    backend.timers.add(handle);
    return handle;
  }) as typeof setTimeout;
  // Keep `util.promisify(setTimeout)` working.
  Object.defineProperty(trackedSetTimeout, promisify.custom, {
    value: (originalSetTimeout as unknown as Record<symbol, unknown>)[promisify.custom],
  });
  // The timer convex-test arms for a job it has just written is never armed: the backend's
  // scheduler runs the job. convex-test reads globalThis.setTimeout at that moment, so the
  // property itself answers an inert timer then, whatever was assigned to it since: a test's fake
  // timers replace the function, and a job would otherwise run on their clock through convex-test
  // alone, after the backend closed or twice beside its scheduler.
  const inertSetTimeout = (() => originalSetTimeout(() => {}, 0)) as unknown as typeof setTimeout;
  let assignedSetTimeout = trackedSetTimeout;
  Object.defineProperty(globalThis, "setTimeout", {
    configurable: true,
    enumerable: true,
    get: () => (suppressSchedulerTimers.getStore() ? inertSetTimeout : assignedSetTimeout),
    set: (value: typeof setTimeout) => {
      assignedSetTimeout = value;
    },
  });
}
