import { AsyncLocalStorage } from "node:async_hooks";
import { makeFunctionReference } from "convex/server";
import type { GenericDataModel, UserIdentity } from "convex/server";
import { convexToJson } from "convex/values";
import type { JSONValue, Value } from "convex/values";
import type { TestConvexForDataModel } from "convex-test";
import { backendStorage, journalStorage } from "./runtime.js";
import type { BackendHooks } from "./runtime.js";
import type { CommittedWrite } from "./database.js";
import { ReadSet, readSetStorage } from "./indexes.js";
import type { FunctionDirectory, FunctionKind } from "./modules.js";
import { canonicalUdfPath } from "./modules.js";
import type { LocalScheduler } from "./scheduler.js";

/** A convex-test accessor for whatever schema the functions have. */
export type AnyTestConvex = TestConvexForDataModel<GenericDataModel>;

export type FunctionOutcome =
  { success: true; value: Value } | { success: false; errorMessage: string; errorData?: JSONValue };

/** Something that keeps query results for clients and re-runs them on demand. */
export interface Subscriber {
  /**
   * Bring every subscribed query up to the database state at `snapshotTs`: re-run those whose
   * read set `writes` touch (all of them when `writes` is null).
   */
  syncTo(snapshotTs: bigint, evaluate: QueryEvaluator, writes: readonly CommittedWrite[] | null): Promise<void>;
}

/** A query result plus the journal to send with it and use next time, and what it read. */
export type QueryOutcome = FunctionOutcome & { journal: string | null; readSet: ReadSet };

export type QueryEvaluator = (
  udfPath: string,
  args: Record<string, Value>,
  identity: UserIdentity | null,
  journal: string | null,
) => Promise<QueryOutcome>;

export type EngineOptions = {
  /** How long to gather writes before re-running subscribed queries. */
  batchMs: number;
  /** Safety-net poll of the commit timestamp, for writes the hooks miss. */
  pollMs: number;
  log: (message: string) => void;
};

/**
 * The shared core of the local backend: runs functions through convex-test
 * under an identity, serializes mutations, and after writes re-runs the
 * queries of every subscriber in coalesced batches.
 */
export class Engine implements BackendHooks {
  readonly timers = new Set<ReturnType<typeof setTimeout>>();
  closed = false;
  /** Runs scheduled functions (set by server.ts once the database is loaded). */
  scheduler: LocalScheduler | null = null;
  private readonly subscribers = new Set<Subscriber>();
  private mutationQueue: Promise<unknown> = Promise.resolve();
  private recomputeTimer: ReturnType<typeof setTimeout> | null = null;
  private recomputeRunning: Promise<void> | null = null;
  private recomputeRequested = false;
  private lastSyncedTs = 0n;
  /** Commits since the last query update; null when some went unseen (re-run everything). */
  private pendingWrites: CommittedWrite[] | null = [];
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private pollRunning = false;
  /**
   * Runs a callback in the async context the engine was created in. Writes
   * are noticed inside function calls, whose context carries convex-test's
   * transaction state and forbids timers; follow-up work must not inherit it.
   */
  private readonly detached = AsyncLocalStorage.snapshot();

  constructor(
    /** The raw convex-test instance; call it through `enter`. */
    private readonly t: AnyTestConvex,
    readonly functions: FunctionDirectory,
    private readonly options: EngineOptions,
  ) {}

  start(): void {
    this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs);
    this.pollTimer.unref();
  }

  /** Runs `work` as this backend, so its writes and timers are attributed. */
  enter<T>(work: () => T): T {
    return backendStorage.run(this, work);
  }

  accessor(identity: UserIdentity | null): AnyTestConvex {
    return identity === null ? this.t : this.t.withIdentity(identity);
  }

  addSubscriber(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
  }

  removeSubscriber(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
  }

  /**
   * The latest commit's timestamp, when the database reports its commits (database.ts): read
   * without a transaction, so a mutation's answer does not queue behind query updates.
   */
  commitClock: (() => bigint) | null = null;

  /** The timestamp of the latest commit (0 before any). */
  async snapshotTs(): Promise<bigint> {
    if (this.commitClock) return this.commitClock();
    return await this.enter(() => this.t.query(async (ctx) => ctx.meta.getSnapshotTs()));
  }

  /**
   * Runs a function by path as a client would call it: only public functions
   * of the expected kind (`kind` undefined accepts any kind), mutations one
   * at a time in arrival order.
   */
  async runFunction(
    kind: FunctionKind | undefined,
    udfPath: string,
    args: Record<string, Value>,
    identity: UserIdentity | null,
    options: { allowInternal?: boolean } = {},
  ): Promise<FunctionOutcome & { kind?: FunctionKind }> {
    const path = canonicalUdfPath(udfPath);
    let info;
    try {
      info = await this.functions.describe(path);
    } catch (error) {
      return failure(error);
    }
    if (info === null || info.kind === "httpAction" || (info.visibility === "internal" && !options.allowInternal)) {
      return {
        success: false,
        errorMessage: `Could not find public function for '${path}'. Did you forget to run \`npx convex dev\` or \`npx convex deploy\`?`,
      };
    }
    if (kind !== undefined && info.kind !== kind) {
      return {
        success: false,
        errorMessage: `Trying to execute ${path} as ${capitalize(kind)}, but it is defined as ${capitalize(info.kind)}.`,
      };
    }
    const actualKind = info.kind;
    const call = async (): Promise<FunctionOutcome> => {
      try {
        const accessor = this.accessor(identity);
        const value: Value = await this.enter(() => {
          switch (actualKind) {
            case "query":
              return accessor.query(makeFunctionReference<"query", Record<string, Value>, Value>(path), args);
            case "mutation":
              return accessor.mutation(makeFunctionReference<"mutation", Record<string, Value>, Value>(path), args);
            case "action":
              return accessor.action(makeFunctionReference<"action", Record<string, Value>, Value>(path), args);
          }
        });
        return { success: true, value: value === undefined ? null : value };
      } catch (error) {
        return failure(error);
      }
    };
    const outcome = actualKind === "mutation" ? await this.enqueueMutation(call) : await call();
    return { ...outcome, kind: actualKind };
  }

  /**
   * Runs a subscribed query. `journal` pins the end cursor of its
   * `.paginate()` to the one of its first run (see PaginationJournal).
   */
  runSubscribedQuery: QueryEvaluator = async (udfPath, args, identity, journal) => {
    let endCursor: string | null = null;
    try {
      endCursor = journal === null ? null : (JSON.parse(journal) as { endCursor: string | null }).endCursor;
    } catch {
      // A journal from elsewhere (another backend): start afresh.
    }
    const state = { endCursor, recorded: null };
    const readSet = new ReadSet();
    const outcome = await readSetStorage.run(readSet, () =>
      journalStorage.run(state, () => this.runFunction("query", udfPath, args, identity)),
    );
    const recorded: string | null = state.recorded;
    return {
      ...outcome,
      journal: recorded === null ? journal : JSON.stringify({ endCursor: recorded }),
      readSet,
    };
  };

  /** Runs `work` after every mutation queued before it has finished. */
  enqueueMutation<T>(work: () => Promise<T>): Promise<T> {
    const result = this.mutationQueue.then(work);
    this.mutationQueue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Called by the runtime hooks when a function of this backend schedules one. */
  scheduled(jobId: string, at: number): void {
    this.scheduler?.scheduled(jobId, at);
  }

  /** Called for each top-level commit with what it changed (database.ts). */
  noteCommit(writes: readonly CommittedWrite[]): void {
    this.pendingWrites?.push(...writes);
    this.noteWrite();
  }

  /** Called by the runtime hooks whenever a function of this backend writes. */
  noteWrite(): void {
    this.detached(() => this.requestRecompute());
  }

  /**
   * Re-run subscribed queries after `batchMs`, coalescing every request made
   * meanwhile; requests made during a run start one more run `batchMs` after
   * it, so a burst of writes costs a few runs rather than one per write.
   */
  requestRecompute(): void {
    if (this.closed) return;
    this.recomputeRequested = true;
    if (this.recomputeTimer !== null || this.recomputeRunning !== null) return;
    this.recomputeTimer = setTimeout(() => {
      this.recomputeTimer = null;
      this.recomputeRunning = this.recompute().finally(() => {
        this.recomputeRunning = null;
        if (this.recomputeRequested) this.requestRecompute();
      });
    }, this.options.batchMs);
  }

  /** Resolves once queued recomputation has finished (for tests and seeding). */
  async settle(): Promise<void> {
    while (this.recomputeTimer !== null || this.recomputeRunning !== null) {
      await (this.recomputeRunning ?? new Promise((r) => setTimeout(r, this.options.batchMs)));
    }
  }

  private async recompute(): Promise<void> {
    this.recomputeRequested = false;
    if (this.closed) return;
    try {
      const writes = this.pendingWrites;
      this.pendingWrites = [];
      const snapshotTs = await this.snapshotTs();
      this.lastSyncedTs = snapshotTs;
      // Clients of one user often watch the same queries: evaluate each
      // (identity, query, args) once per batch.
      const cache = new Map<string, Promise<QueryOutcome>>();
      const evaluate: QueryEvaluator = (udfPath, args, identity, journal) => {
        const key = JSON.stringify([identity, udfPath, convexToJson(args), journal]);
        let outcome = cache.get(key);
        if (outcome === undefined) {
          outcome = this.runSubscribedQuery(udfPath, args, identity, journal);
          cache.set(key, outcome);
        }
        return outcome;
      };
      await Promise.all(
        [...this.subscribers].map((subscriber) =>
          subscriber.syncTo(snapshotTs, evaluate, writes).catch((error: unknown) => {
            this.options.log(`query update failed: ${describe(error)}`);
          }),
        ),
      );
    } catch (error) {
      this.options.log(`query update failed: ${describe(error)}`);
    }
  }

  private async poll(): Promise<void> {
    if (this.pollRunning || this.closed || this.subscribers.size === 0) return;
    this.pollRunning = true;
    try {
      const ts = await this.snapshotTs();
      if (ts !== this.lastSyncedTs && this.recomputeTimer === null && this.recomputeRunning === null) {
        // A commit no hook reported: bring every query up to date.
        this.pendingWrites = null;
        this.requestRecompute();
      }
    } catch (error) {
      this.options.log(`poll failed: ${describe(error)}`);
    } finally {
      this.pollRunning = false;
    }
  }

  /** Stops timers (its own and those of scheduled functions). */
  close(): void {
    this.closed = true;
    this.scheduler?.close();
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.recomputeTimer) clearTimeout(this.recomputeTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.subscribers.clear();
  }
}

const CONVEX_ERROR = Symbol.for("ConvexError");

/** How a thrown value reaches clients: message, plus data for a ConvexError. */
export function failure(error: unknown): FunctionOutcome & { success: false } {
  if (typeof error === "object" && error !== null && CONVEX_ERROR in error) {
    const convexError = error as unknown as Error & { data: Value };
    return {
      success: false,
      errorMessage: `Uncaught ConvexError: ${convexError.message}`,
      errorData: convexToJson(convexError.data === undefined ? null : convexError.data),
    };
  }
  if (error instanceof Error) {
    return { success: false, errorMessage: `Uncaught ${error.name}: ${error.message}` };
  }
  return { success: false, errorMessage: `Uncaught ${String(error)}` };
}

export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
