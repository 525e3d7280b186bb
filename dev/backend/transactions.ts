import { AsyncLocalStorage } from "node:async_hooks";
// Not the global: inside a transaction convex-test replaces it with one that throws.
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import type { AnyTestConvex } from "./engine.js";
import type { CommittedWrite, DatabaseFake, LocalDatabase } from "./database.js";
import { scheduledMutationStorage } from "./database.js";
import { beginCreationTime, nextCreationTime } from "./creationTime.js";
import { ReadSet, transactionReadSet, transactionSnapshots } from "./readSet.js";
import { meter } from "./meter.js";
import { handlerHooks } from "./modules.js";
import { USER_CODE_LIMIT_MS } from "./plan.js";
import { newTracker, resetPaginationCount, zeroUsage } from "./transactionMetrics.js";
import type { Limits, Tracker, Usage } from "./transactionMetrics.js";
import {
  UserTimeoutError,
  codeChecked,
  codeStarts,
  currentOwner,
  newUserCodeClock,
  ownCodeMs,
  pastLimit,
} from "./userCode.js";
import type { UserCodeClock } from "./userCode.js";

/**
 * Concurrent transactions with optimistic concurrency control, as a Convex deployment runs them.
 *
 * convex-test runs one top-level transaction at a time (a lock in `TransactionManager.begin`) and
 * keeps one stack of pending writes per database. Here the transaction manager's state lives in
 * the async context of each top-level transaction instead, so queries and mutations interleave at
 * every `await`: each has its own pending writes, metrics tracker (transaction limits), snapshot
 * and read set (the documents and index ranges it read, indexes.ts). A top-level commit is
 * synchronous; it is refused when a commit after the transaction's snapshot wrote into its read
 * set. A mutation whose reads were invalidated (found at the end of its handler, or when it threw)
 * runs again from the start with its writes discarded, after a random back-off, up to the engine's
 * retries, then fails with the deployment's write-conflict error. Reads see the transaction's
 * snapshot (indexes.ts keeps the versions that later commits replaced), so a query only ever sees
 * one committed state and never needs to run again. A query's or mutation's own code may run
 * `userCodeLimitMs` per attempt (userCode.ts); past it the call fails with the deployment's
 * time-out error, is not retried, and a mutation writes nothing.
 */

/** How many times a deployment retries a conflicting mutation before failing it. */
export const OCC_RETRIES = 4;
/** The first retry of a mutation waits up to this long; each further one twice as long. */
const RETRY_BACKOFF_MS = 50;
/**
 * A scheduled mutation is retried until it commits, its back-off doubling up to this
 * (knobs.rs SCHEDULER_OCC_MAX_BACKOFF, 60 s; crates/application/src/scheduled_jobs/mod.rs
 * `handle_mutation` retries write conflicts and write-throughput refusals without a count).
 */
const SCHEDULED_RETRY_MAX_BACKOFF_MS = 60_000;
/** Own code shorter than this (wall clock) goes to the meter as it is, without its CPU share. */
const OWN_CODE_EXACT_FROM_MS = 50;

type Writes = Record<string, unknown>[];

type TxState = {
  done: boolean;
  writes: Map<DatabaseFake, Writes>;
  tracker: Tracker | null;
  limits: Limits;
  snapshotSeq: number;
  snapshotTs: bigint;
  readSet: ReadSet;
  /** The function whose handler runs the retry loop (set by `wrapHandler`); null for inline ones. */
  path: string | null;
  kind: "query" | "mutation" | null;
  usage: Usage;
  /** Set once the handler's wrapper has committed the writes (see `commitNow`). */
  committedTs?: bigint;
  /** Lets the next transaction start (one-at-a-time setting). */
  release?: () => void;
  /** When the transaction last let the event loop turn (performance.now()). */
  lastTurn: number;
  /** The commits its reads see (indexes.ts keeps what later commits replaced). */
  readSeq: number;
  /** The backend whose transaction this is. */
  owner: Transactions;
  /** How long the attempt's own code has run (userCode.ts). */
  clock: UserCodeClock;
  /** The `_creationTime` of the next document it inserts (creationTime.ts). */
  creationTime: number;
};

/** How long a transaction runs before letting the event loop turn (its I/O, others' calls). */
const TURN_MS = 4;

/**
 * Whether the running transaction has run TURN_MS since it last let the event loop turn. A
 * transaction here never waits for I/O on its own, so without these turns a long one would run
 * start to end while requests wait, and only calls started together could ever overlap; on a
 * deployment every call runs in parallel in real time.
 */
export function transactionWantsTurn(): boolean {
  const state = liveState();
  if (state === undefined) return false;
  const now = performance.now();
  if (now - state.lastTurn < TURN_MS) return false;
  state.lastTurn = now;
  return true;
}

export type Conflict = { write: CommittedWrite; path: string | null };

/** The deployment's error for a mutation that conflicted on every retry. */
export class WriteConflictError extends Error {
  constructor(conflict: Conflict, path: string | null) {
    const by =
      conflict.path !== null && conflict.path === path
        ? "Another call to this mutation"
        : conflict.path !== null
          ? `A call to "${conflict.path}"`
          : "Another transaction";
    super(
      `Documents read from or written to the table "${conflict.write.table}" changed while this mutation was being run and on every subsequent retry. ${by} changed the document with ID "${conflict.write.id}". See https://docs.convex.dev/error#1`,
    );
    this.name = "WriteConflictError";
  }
}

/** Thrown at commit when a commit landed after the handler's own check (retried by the caller). */
export class CommitConflict extends Error {
  constructor(readonly conflict: Conflict) {
    super("write conflict at commit");
  }
}

const txStorage = new AsyncLocalStorage<TxState>();

function liveState(): TxState | undefined {
  const state = txStorage.getStore();
  return state && !state.done ? state : undefined;
}

/** Every running top-level transaction, of every backend in the process. */
const live = new Set<TxState>();

transactionReadSet.current = () => liveState()?.readSet;
transactionSnapshots.current = () => liveState()?.readSeq;
transactionSnapshots.oldest = () => {
  let oldest: number | undefined;
  for (const state of live) if (oldest === undefined || state.readSeq < oldest) oldest = state.readSeq;
  return oldest;
};
transactionSnapshots.all = () => [...live].map((state) => state.readSeq);
// Whose code runs is the async context's: the transaction it belongs to (userCode.ts).
currentOwner.clock = () => liveState()?.clock ?? null;
// The top level of a transaction runs until its reads are current; a nested call just runs.
handlerHooks.transaction =
  (kind, path, handler) =>
  async (...args: unknown[]) => {
    const state = liveState();
    if (!state || state.path !== null) return await handler(...args);
    return await state.owner.runTopLevel(state, kind, path, handler, args);
  };

type ConvexGlobal = {
  components: Record<string, { db: DatabaseFake }>;
  transactionManager: Record<string, unknown> & { _limitsConfig: unknown };
};

/** convex-test's per-instance global (transaction manager, components), caught as it is entered. */
function captureConvexGlobal(t: AnyTestConvex): ConvexGlobal {
  const prototype = AsyncLocalStorage.prototype as unknown as { run: (...args: unknown[]) => unknown };
  const run = prototype.run;
  let captured: ConvexGlobal | undefined;
  const stop = new Error("captured");
  prototype.run = function (this: unknown, store: unknown, ...rest: unknown[]) {
    if (typeof store === "object" && store !== null && "transactionManager" in store && "components" in store) {
      captured = store as ConvexGlobal;
      throw stop;
    }
    return run.call(this, store, ...rest);
  };
  try {
    // Any accessor call enters the instance's context synchronously; it is stopped right there.
    void t.query(async () => null);
  } catch (error) {
    if (error !== stop) throw error;
  } finally {
    prototype.run = run;
  }
  if (!captured) throw new Error("could not reach convex-test's transaction manager (has convex-test changed?)");
  return captured;
}

/** Lets the event loop turn (see transactionWantsTurn). */
export async function turn(): Promise<void> {
  await nextTurn();
}

export type TransactionsOptions = {
  /** One top-level transaction at a time, as convex-test does (a debugging setting). */
  serial: boolean;
  /** How long a query's or mutation's own code may run per attempt (0: no limit; default 1 s). */
  userCodeLimitMs?: number;
};

/**
 * A database call of the running transaction begins (runtime.ts). Throws the deployment's
 * time-out error once its own code has run past the limit, and at every call after. Returns the
 * clock to run the call's own work against (`databaseWork` of userCode.ts, charged to no one);
 * null outside a registered query's or mutation's handler.
 */
export function databaseCallStarts(): UserCodeClock | null {
  const state = liveState();
  if (state === undefined || state.path === null) return null;
  codeChecked(state.clock);
  if (pastLimit(state.clock, state.owner.userCodeLimitMs)) throw new UserTimeoutError(state.owner.userCodeLimitMs);
  return state.clock;
}

/**
 * Takes over convex-test's transaction manager for one backend. Call once, after the database is
 * loaded (commits are reported through `database.onCommit`).
 */
export class Transactions {
  private commitSeq = 0;
  private lastCommitTs = 0n;
  /** Commits newer than the oldest live snapshot. */
  private log: { seq: number; writes: CommittedWrite[]; path: string | null }[] = [];
  /** This backend's running top-level transactions. */
  private readonly live = new Set<TxState>();
  private committingPath: string | null = null;
  /** Validates and applies a top-level transaction's writes (synchronously). */
  private readonly commitNow: (state: TxState) => bigint;
  private serialLock: Promise<void> | null = null;
  readonly serial: boolean;
  /** How long a query's or mutation's own code may run per attempt (0: no limit). */
  readonly userCodeLimitMs: number;

  constructor(
    t: AnyTestConvex,
    private readonly database: LocalDatabase,
    options: TransactionsOptions,
  ) {
    this.serial = options.serial;
    this.userCodeLimitMs = options.userCodeLimitMs ?? USER_CODE_LIMIT_MS;
    const convex = captureConvexGlobal(t);
    const manager = convex.transactionManager;
    const limitsConfig = manager._limitsConfig;
    this.lastCommitTs = database.lastCommitTs;
    const databases = Object.values(convex.components).map((component) => component.db);
    for (const db of databases) {
      Object.defineProperty(db, "_writes", {
        configurable: true,
        get: () => liveState()?.writes.get(db) ?? [],
        set: (value: Writes) => {
          const state = liveState();
          if (state) state.writes.set(db, value);
        },
      });
    }
    for (const db of databases) {
      // A document's `_creationTime` is its transaction's begin time (creationTime.ts).
      const insert = db.insert.bind(db);
      db.insert = (table, value) => {
        const state = liveState();
        if (state === undefined) return insert(table, value);
        db._validate(table, value);
        const _id = db._generateId(table);
        db._addWrite(_id, { ...value, _id, _creationTime: nextCreationTime(state) });
        return _id;
      };
    }
    database.onCommit((writes) => {
      this.commitSeq++;
      if (writes.length > 0 && this.live.size > 0) {
        this.log.push({ seq: this.commitSeq, writes, path: this.committingPath });
      }
    });

    manager.begin = async (isNested: boolean, limits: Limits) => {
      if (!isNested) {
        const state: TxState = {
          done: false,
          writes: new Map(databases.map((db) => [db, []])),
          tracker: null,
          limits,
          snapshotSeq: this.commitSeq,
          snapshotTs: this.lastCommitTs,
          readSet: new ReadSet(),
          path: null,
          kind: null,
          usage: zeroUsage(),
          lastTurn: performance.now(),
          readSeq: database.snapshotSeq(),
          owner: this,
          clock: newUserCodeClock(),
          creationTime: beginCreationTime(this.lastCommitTs),
        };
        state.tracker = newTracker(limitsConfig, state);
        // The rest of the caller (convex-test's runQuery/runMutation) continues in this context;
        // only what runs synchronously here reaches it, so this comes before any await.
        txStorage.enterWith(state);
        if (this.serial) {
          while (this.serialLock !== null) await this.serialLock;
          let release!: () => void;
          this.serialLock = new Promise((resolve) => (release = resolve));
          state.release = () => {
            this.serialLock = null;
            release();
          };
          state.snapshotSeq = this.commitSeq;
          state.snapshotTs = this.lastCommitTs;
          state.readSeq = database.snapshotSeq();
        }
        this.live.add(state);
        live.add(state);
        for (const db of databases) state.writes.get(db)!.push({});
        state.tracker.startTransaction(limits);
        return;
      }
      const state = liveState();
      for (const db of databases) db._writes.push({});
      state?.tracker?.startTransaction(limits);
    };
    manager.isInTransaction = () => liveState() !== undefined;
    manager.getMetricsTracker = () => liveState()?.tracker ?? null;
    manager.getSnapshotTs = () => {
      const state = liveState();
      if (!state) throw new Error("getSnapshotTs() can only be called from a query or mutation.");
      return state.snapshotTs;
    };
    this.commitNow = (state) => {
      const wrote = databases.some((db) => Object.keys(state.writes.get(db)?.[0] ?? {}).length > 0);
      const conflict = wrote ? this.conflictOf(state) : null;
      if (conflict) throw new CommitConflict(conflict);
      const nowNanos = BigInt(Date.now()) * 1000000n;
      const commitTs = nowNanos > this.lastCommitTs ? nowNanos : this.lastCommitTs + 1n;
      this.lastCommitTs = commitTs;
      this.committingPath = state.path;
      try {
        for (const db of databases) db.commit(commitTs);
      } finally {
        this.committingPath = null;
      }
      state.tracker?.commit();
      state.committedTs = commitTs;
      meter.recordCommit(state.path ?? "(inline)", state.usage);
      return commitTs;
    };
    manager.commit = (isNested: boolean) => {
      const state = liveState();
      if (!state) throw new Error("Transaction not started");
      if (!isNested) {
        const commitTs = state.committedTs ?? this.commitNow(state);
        this.end(state);
        return commitTs;
      }
      for (const db of databases) db.commit(null);
      state.tracker?.commit();
      return null;
    };
    manager.rollback = (isNested: boolean) => {
      const state = liveState();
      if (!state) throw new Error("Transaction not started");
      if (!isNested && state.committedTs !== undefined) {
        // Committed by its handler's wrapper; what failed after (a return value) cannot undo it.
        this.end(state);
        return;
      }
      for (const db of databases) db.rollbackWrites();
      state.tracker?.rollback();
      if (!isNested) {
        meter.recordReads(state.path ?? "(inline)", state.usage);
        this.end(state);
      }
    };
  }

  private end(state: TxState): void {
    state.done = true;
    this.live.delete(state);
    live.delete(state);
    state.release?.();
    let oldest = this.commitSeq;
    for (const other of this.live) if (other.snapshotSeq < oldest) oldest = other.snapshotSeq;
    if (this.log.length > 0 && this.log[0]!.seq <= oldest) this.log = this.log.filter((entry) => entry.seq > oldest);
    this.database.pruneVersions();
  }

  /** A commit after the state's snapshot that wrote into what it read, if any. */
  private conflictOf(state: TxState): Conflict | null {
    for (const entry of this.log) {
      if (entry.seq <= state.snapshotSeq) continue;
      const write = state.readSet.conflictWith(entry.writes);
      if (write) return { write, path: entry.path };
    }
    return null;
  }

  /** Discards an attempt's writes and reads and takes a new snapshot, for the next attempt. */
  private restart(state: TxState): void {
    meter.recordReads(state.path ?? "(inline)", state.usage);
    state.usage = zeroUsage();
    for (const db of state.writes.keys()) state.writes.set(db, [{}]);
    state.readSet = new ReadSet();
    state.snapshotSeq = this.commitSeq;
    state.snapshotTs = this.lastCommitTs;
    state.lastTurn = performance.now();
    state.readSeq = this.database.snapshotSeq();
    state.creationTime = beginCreationTime(this.lastCommitTs);
    state.tracker = newTracker(undefined, state, state.tracker);
    state.tracker.startTransaction(state.limits);
    resetPaginationCount();
  }

  /**
   * Runs a registered query's or mutation's handler at the top level of its transaction: a
   * mutation until it finishes on reads no commit has changed since, then commits it at once
   * (retrying it at most OCC_RETRIES times).
   */
  async runTopLevel(
    state: TxState,
    kind: "query" | "mutation",
    path: string,
    handler: (...args: unknown[]) => unknown,
    args: unknown[],
  ): Promise<unknown> {
    state.path = path;
    state.kind = kind;
    meter.recordCall(path);
    for (let attempt = 0; ; attempt++) {
      codeStarts(state.clock);
      let outcome: { result: unknown } | { error: unknown };
      try {
        outcome = { result: await handler(...args) };
      } catch (error) {
        outcome = { error };
      }
      codeChecked(state.clock);
      // Its CPU share is read only when the wall clock says it may matter (a read costs ~16 µs).
      meter.recordOwnCode(
        path,
        state.clock.ownMs < OWN_CODE_EXACT_FROM_MS ? state.clock.ownMs : ownCodeMs(state.clock),
      );
      // Its own code ran past the limit: a deployment terminates it, whatever it did after (a
      // caught error included). Not retried; a mutation writes nothing.
      if (pastLimit(state.clock, this.userCodeLimitMs)) {
        if (kind === "query") transactionReadSet.outer()?.merge(state.readSet);
        meter.recordTimeout(path);
        meter.recordFailure(path);
        throw new UserTimeoutError(this.userCodeLimitMs);
      }
      // A query read a snapshot: its result is a committed state whatever committed since.
      const conflict = kind === "query" ? null : this.conflictOf(state);
      if (conflict === null) {
        if (kind === "query") transactionReadSet.outer()?.merge(state.readSet);
        // An error on reads that were all current is the function's own.
        if ("error" in outcome) {
          meter.recordFailure(path);
          throw outcome.error;
        }
        // Committed in the same synchronous step as the check, so no other commit can land
        // between them (convex-test's own commit call, a few awaits later, then only ends it).
        if (kind === "mutation") this.commitNow(state);
        return outcome.result;
      }
      meter.recordConflict(path, { table: conflict.write.table, by: conflict.path });
      // A scheduled mutation is retried until it commits; any other fails after OCC_RETRIES.
      const scheduled = kind === "mutation" && scheduledMutationStorage.getStore() !== undefined;
      if (attempt >= OCC_RETRIES && !scheduled) {
        meter.recordFailure(path);
        throw new WriteConflictError(conflict, kind === "mutation" ? path : null);
      }
      meter.recordRetry(path);
      // The engine backs off before a retry: randomly, longer each time, so the calls that lost
      // together do not all meet again.
      if (kind === "mutation") {
        const backoff = Math.min(SCHEDULED_RETRY_MAX_BACKOFF_MS, RETRY_BACKOFF_MS * 2 ** Math.min(attempt, 20));
        await sleep(Math.random() * backoff);
      }
      this.restart(state);
    }
  }

  /** Whether an error is a commit refused for a conflict found after the handler's own check. */
  static isCommitConflict(error: unknown): error is CommitConflict {
    return error instanceof CommitConflict;
  }
}

/**
 * Runs a transaction again when its commit was refused for a write conflict (one that landed
 * after its handler's own check), as the engine retries it.
 */
export async function untilCommitted<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof CommitConflict)) throw error;
      if (attempt >= OCC_RETRIES) throw new WriteConflictError(error.conflict, null);
    }
  }
}
