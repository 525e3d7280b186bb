import { AsyncLocalStorage } from "node:async_hooks";
import { makeFunctionReference } from "convex/server";
import type { GenericDataModel, UserIdentity } from "convex/server";
import { convexToJson } from "convex/values";
import type { Value } from "convex/values";
import type { TestConvexForDataModel } from "convex-test";
import { backendStorage, journalStorage } from "./runtime.js";
import type { BackendHooks } from "./runtime.js";
import type { CommittedWrite } from "./database.js";
import { ReadSet, readSetStorage } from "./readSet.js";
import type { FunctionDirectory, FunctionKind } from "./modules.js";
import { canonicalUdfPath } from "./modules.js";
import type { LocalScheduler } from "./scheduler.js";
import { meter } from "./meter.js";
import { PlanSlots, TooManyConcurrentRequestsError } from "./plan.js";
import { describe, failure, withActionTimeout } from "./outcomes.js";
import type { ClientAddress, FunctionOutcome } from "./outcomes.js";
import type { Slots } from "./plan.js";
import { scheduledMutationStorage } from "./database.js";
import { CommitConflict, OCC_RETRIES, Transactions, WriteConflictError } from "./transactions.js";
import { TooManyWritesError, WriteThroughput, argumentsError, resultError, valueSize } from "./valueLimits.js";

/**
 * Set while a function runs as a deployment would run it (a client's call, a scheduled job, a
 * cron, and what their actions call): its commits count against the write throughput limit.
 * Seeding through `RunningBackend.t` does not.
 */
const servedStorage = new AsyncLocalStorage<true>();
import { apartFromAction, assertActionAlive, KILLED_MESSAGE, withActionFaults } from "./faults.js";

/** A convex-test accessor for whatever schema the functions have. */
export type AnyTestConvex = TestConvexForDataModel<GenericDataModel>;

/** Something that keeps query results for clients and re-runs them on demand. */
export interface Subscriber {
  /**
   * Bring every subscribed query up to the database state at `snapshotTs`: re-run those whose
   * read set `writes` (the commits since its last call) touch, all of them when `writes` is null.
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
  /** The plan's caps on concurrent functions (default: Professional's). */
  plan?: PlanSlots;
  /** Run clients' and scheduled mutations one at a time (debugging; default: concurrently). */
  serialMutations?: boolean;
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
  /** The plan's caps on concurrently running functions. */
  readonly plan: PlanSlots;
  /** The bytes mutations committed in the last second, against the plan's limit. */
  readonly writes: WriteThroughput;
  /** Each subscriber and the commit timestamp its queries have been brought up to. */
  private readonly subscribers = new Map<Subscriber, bigint>();
  /** Subscribers whose client waits for a Transition (a mutation's answer): served first. */
  private readonly awaiting = new Set<Subscriber>();
  private mutationQueue: Promise<unknown> = Promise.resolve();
  private recomputeTimer: ReturnType<typeof setTimeout> | null = null;
  private recomputeRunning: Promise<void> | null = null;
  private recomputeRequested = false;
  /** The latest commit noted (0 before any). */
  private latestTs = 0n;
  /** The latest commit that changed something (or whose changes are unknown). */
  private latestChangeTs = 0n;
  /**
   * The commits not yet brought to every subscriber, oldest first; `writes` is null for a commit
   * whose changes are unknown (every query re-runs).
   */
  private commits: { ts: bigint; writes: readonly CommittedWrite[] | null }[] = [];
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
  ) {
    this.plan = options.plan ?? new PlanSlots("professional");
    this.writes = new WriteThroughput(this.plan.writeBytesPerSecond);
  }

  /**
   * A call an action makes (`ctx.runQuery`, `ctx.runMutation`, `ctx.runAction`): it takes a slot
   * of its kind like a client's call, waits for it as long, and a mutation is refused while the
   * last second's writes are over the limit (modules.ts wraps an action's context; runtime.ts routes here).
   */
  async nestedCall<T>(
    kind: FunctionKind,
    path: string,
    args: Record<string, Value>,
    work: () => Promise<T>,
  ): Promise<T> {
    const tooLarge = argumentsError(canonicalUdfPath(path), args);
    if (tooLarge !== null) throw new Error(tooLarge);
    const slots: Slots =
      kind === "query" ? this.plan.queries : kind === "mutation" ? this.plan.mutations : this.plan.actions;
    const run = () =>
      slots.run(async () => {
        if (kind === "mutation") this.writes.check();
        return await work();
      });
    // A killed action sends nothing more; a query or mutation it sent runs on if it dies meanwhile (faults.ts).
    assertActionAlive();
    return kind === "action" ? await run() : await apartFromAction(run);
  }

  /** Counts a commit's bytes against the write throughput limit when a served function made it. */
  private countWrittenBytes(writes: readonly CommittedWrite[]): void {
    if (writes.length === 0 || !servedStorage.getStore()) return;
    let bytes = 0;
    // A deletion writes a tombstone: its id.
    for (const write of writes) bytes += write.value === null ? write.id.length + 2 : valueSize(write.value as Value);
    this.writes.record(bytes);
  }

  start(): void {
    this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs);
    this.pollTimer.unref();
  }

  /** Runs `work` as this backend, so its writes and timers are attributed. */
  enter<T>(work: () => T): T {
    return backendStorage.run(this, work);
  }

  /** convex-test as `identity`, with the request's client address (ctx.meta.getRequestMetadata) when one came. */
  accessor(identity: UserIdentity | null, client: ClientAddress | null = null): AnyTestConvex {
    const signed = identity === null ? this.t : this.t.withIdentity(identity);
    return client === null ? signed : signed.withRequestMetadata(client);
  }

  addSubscriber(subscriber: Subscriber): void {
    // Its queries run when its client adds them, at the current state or a later one.
    this.subscribers.set(subscriber, this.latestTs);
  }

  removeSubscriber(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    this.awaiting.delete(subscriber);
  }

  /** Sends `subscriber` a Transition soon, even if no commit is new to it (a mutation's answer). */
  requestTransition(subscriber: Subscriber): void {
    if (!this.subscribers.has(subscriber)) return;
    this.awaiting.add(subscriber);
    this.requestRecompute();
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
    options: { allowInternal?: boolean; client?: ClientAddress | null } = {},
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
    /** One run; a CommitConflict when its commit was refused (a commit landed after its own check). */
    const call = async (): Promise<FunctionOutcome | CommitConflict> => {
      try {
        const accessor = this.accessor(identity, options.client ?? null);
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
        if (Transactions.isCommitConflict(error)) return error;
        return failure(error);
      }
    };
    const tooLarge = argumentsError(path, args);
    if (tooLarge !== null) return { success: false, errorMessage: tooLarge, kind: actualKind };
    let outcome: FunctionOutcome;
    try {
      outcome = await servedStorage.run(true, async () => {
        if (actualKind === "mutation") {
          const run = () =>
            this.plan.mutations.run(async () => {
              this.writes.check();
              return await this.untilCommitted(path, call);
            });
          return this.options.serialMutations ? await this.enqueueMutation(run) : await run();
        } else if (actualKind === "action") {
          return await this.plan.actions.run(() =>
            withActionFaults(
              () => withActionTimeout(call as () => Promise<FunctionOutcome>),
              () => ({ success: false, errorMessage: KILLED_MESSAGE }),
            ),
          );
        }
        return (await this.plan.queries.run(call)) as FunctionOutcome;
      });
    } catch (error) {
      // Refused before it ran: no slot within the wait, or the writes of the last second.
      if (error instanceof TooManyConcurrentRequestsError || error instanceof TooManyWritesError) {
        meter.recordFailure(path);
        return { success: false, errorMessage: error.message, kind: actualKind };
      }
      throw error;
    }
    if (outcome.success) {
      const invalid = resultError(path, outcome.value);
      if (invalid !== null) outcome = { success: false, errorMessage: invalid };
    }
    return { ...outcome, kind: actualKind };
  }

  /** Runs a mutation again when its commit was refused, as the engine retries it. */
  private async untilCommitted(
    path: string,
    call: () => Promise<FunctionOutcome | CommitConflict>,
  ): Promise<FunctionOutcome> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await call();
      if (!(outcome instanceof CommitConflict)) return outcome;
      meter.recordConflict(path);
      // A scheduled mutation is retried until it commits (transactions.ts `runTopLevel`).
      if (attempt >= OCC_RETRIES && scheduledMutationStorage.getStore() === undefined) {
        meter.recordFailure(path);
        return failure(new WriteConflictError(outcome.conflict, path));
      }
      meter.recordRetry(path);
    }
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

  /** Called for each top-level commit with what it changed, possibly nothing (database.ts). */
  noteCommit(writes: readonly CommittedWrite[]): void {
    this.countWrittenBytes(writes);
    const ts = this.commitClock?.();
    if (ts !== undefined && ts > this.latestTs) {
      this.latestTs = ts;
      // A commit that wrote nothing changes no query; only a mutation's answer waits for it.
      if (writes.length > 0) {
        this.latestChangeTs = ts;
        if (this.subscribers.size > 0) this.commits.push({ ts, writes });
      }
    }
    if (writes.length > 0) this.noteWrite();
  }

  /** Called by the runtime hooks whenever a function of this backend writes. */
  noteWrite(): void {
    this.detached(() => this.requestRecompute());
  }

  /**
   * Bring subscribers up to date `batchMs` after a write, coalescing every request made
   * meanwhile; requests made during a run start one more run `batchMs` after it, so a burst of
   * writes costs a few runs rather than one per write.
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

  /**
   * Brings subscribers up to the latest commit one at a time, those whose client waits for a
   * mutation's answer first, then the furthest behind; commits that land meanwhile are taken
   * along. A subscriber's queries run together, and a mutation waits for at most one
   * subscriber's queries (convex-test runs one transaction at a time, in the order asked), so a
   * mutation's answer does not queue behind the query updates of every other client.
   */
  private async recompute(): Promise<void> {
    this.recomputeRequested = false;
    // Clients of one user often watch the same queries: evaluate each (identity, query,
    // args) once per database state.
    let cache = { ts: -1n, outcomes: new Map<string, Promise<QueryOutcome>>() };
    try {
      for (;;) {
        if (this.closed) return;
        const latest = await this.snapshotTs();
        if (latest > this.latestTs) {
          // A commit no hook reported: every query re-runs.
          this.latestTs = latest;
          this.latestChangeTs = latest;
          if (this.subscribers.size > 0) this.commits.push({ ts: latest, writes: null });
        }
        const subscriber = this.nextToSync();
        if (subscriber === null) break;
        const from = this.subscribers.get(subscriber)!;
        const ts = this.latestTs;
        this.subscribers.set(subscriber, ts);
        this.awaiting.delete(subscriber);
        if (cache.ts !== ts) cache = { ts, outcomes: new Map() };
        const outcomes = cache.outcomes;
        const evaluate: QueryEvaluator = (udfPath, args, identity, journal) => {
          const key = JSON.stringify([identity, udfPath, convexToJson(args), journal]);
          let outcome = outcomes.get(key);
          if (outcome === undefined) {
            meter.recordRerun(canonicalUdfPath(udfPath));
            outcome = this.runSubscribedQuery(udfPath, args, identity, journal);
            outcomes.set(key, outcome);
          }
          return outcome;
        };
        await subscriber.syncTo(ts, evaluate, this.writesSince(from)).catch((error: unknown) => {
          this.options.log(`query update failed: ${describe(error)}`);
        });
        this.forgetSyncedCommits();
        // Query runs are promise chains that never wait for I/O: let sockets be read (a client's
        // next mutation) and written between subscribers.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      this.options.log(`query update failed: ${describe(error)}`);
    }
  }

  /** A subscriber waiting for a Transition, else the one furthest behind the latest change. */
  private nextToSync(): Subscriber | null {
    for (const subscriber of this.awaiting) {
      if (this.subscribers.has(subscriber)) return subscriber;
      this.awaiting.delete(subscriber);
    }
    let next: Subscriber | null = null;
    let nextTs = this.latestChangeTs;
    for (const [subscriber, ts] of this.subscribers) {
      if (ts < nextTs) {
        next = subscriber;
        nextTs = ts;
      }
    }
    return next;
  }

  /** The writes of the commits after `ts`; null when one of them is unknown. */
  private writesSince(ts: bigint): CommittedWrite[] | null {
    const writes: CommittedWrite[] = [];
    for (const commit of this.commits) {
      if (commit.ts <= ts) continue;
      if (commit.writes === null) return null;
      writes.push(...commit.writes);
    }
    return writes;
  }

  private forgetSyncedCommits(): void {
    let oldest = this.latestTs;
    for (const ts of this.subscribers.values()) if (ts < oldest) oldest = ts;
    const keep = this.commits.findIndex((commit) => commit.ts > oldest);
    this.commits = keep === -1 ? [] : this.commits.slice(keep);
  }

  /** Runs the safety-net poll now, as its timer would (for tests: no waiting for the timer). */
  pollNow(): Promise<void> {
    return this.poll();
  }

  private async poll(): Promise<void> {
    if (this.pollRunning || this.closed || this.subscribers.size === 0) return;
    this.pollRunning = true;
    try {
      const ts = await this.snapshotTs();
      // A commit no hook reported: the next run takes it (and re-runs every query).
      if (ts > this.latestTs) this.requestRecompute();
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
    this.awaiting.clear();
    this.commits = [];
  }
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
