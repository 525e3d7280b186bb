import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { Value } from "convex/values";
import type { AnyTestConvex, Engine } from "./engine.js";
import { describe } from "./outcomes.js";
import type { LocalDatabase } from "./database.js";
import { scheduledMutationStorage } from "./database.js";
import { untilCommitted } from "./transactions.js";
import type { StoredDocument } from "./store.js";
import { isSlotTimeout } from "./plan.js";
import { isTooManyWrites } from "./valueLimits.js";

const JOBS = "_scheduled_functions";
/** Convex keeps finished scheduled functions for 7 days. */
const FINISHED_JOB_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
// setTimeout holds 32-bit delays; later jobs are re-armed in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long a job scheduled by a transaction still running is waited for. */
const UNCOMMITTED_JOB_MS = 60_000;
/**
 * Jobs started per turn of the event loop: they run concurrently, each letting the loop turn as it
 * goes (transactions.ts), so a burst released at once does not take every turn until it is done.
 */
const JOBS_PER_TURN = 10;
/** How long due jobs are started for before the event loop reads and writes its sockets. */
const TURN_MS = 10;

/** A scheduled job refused before it ran is tried again after this, doubling (SCHEDULER_OCC_*_BACKOFF). */
const REFUSED_BACKOFF_MS = 100;
const REFUSED_MAX_BACKOFF_MS = 60_000;

function refusedBeforeRunning(message: string): boolean {
  return isSlotTimeout(message) || isTooManyWrites(message);
}

type JobState = { kind: "pending" | "inProgress" | "success" | "failed" | "canceled" };
type JobDocument = StoredDocument & { name: string; args: Value[]; scheduledTime: number; state: JobState };

/**
 * Runs scheduled functions from their `_scheduled_functions` documents, in place of
 * convex-test's timers, so that jobs survive a restart: pending jobs are armed again at start,
 * an action that was running when the backend stopped is marked failed (actions run at most
 * once, as on Convex), and a scheduled mutation's job is marked done in the mutation's own
 * commit (exactly once).
 */
export class LocalScheduler {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Jobs whose time has come, started one per turn of the event loop (see `startNext`). */
  private readonly due: string[] = [];
  private starting: ReturnType<typeof setImmediate> | null = null;
  private closed = false;
  private readonly detached = AsyncLocalStorage.snapshot();
  /**
   * Jobs scheduled by a transaction that has not committed yet (transactions run concurrently):
   * armed when their document is committed, forgotten after a while when it never is (the
   * transaction failed or was retried, and its retry scheduled a new job).
   */
  private readonly uncommitted = new Map<string, { at: number; since: number }>();

  constructor(
    private readonly engine: Engine,
    private readonly t: AnyTestConvex,
    private readonly database: LocalDatabase,
    private readonly log: (message: string) => void,
  ) {
    database.onCommit((writes) => {
      if (this.uncommitted.size === 0) return;
      for (const write of writes) {
        const waiting = this.uncommitted.get(write.id);
        if (waiting === undefined) continue;
        this.uncommitted.delete(write.id);
        if (write.value !== null) this.detached(() => this.arm(write.id, waiting.at));
      }
      const now = Date.now();
      for (const [jobId, waiting] of this.uncommitted) {
        if (now - waiting.since > UNCOMMITTED_JOB_MS) this.uncommitted.delete(jobId);
      }
    });
  }

  /** Arms the jobs found in the database; returns how many were resumed. */
  async resume(): Promise<{ pending: number; interrupted: number }> {
    const jobs = this.database.committed(JOBS) as JobDocument[];
    const now = Date.now();
    let pending = 0;
    let interrupted = 0;
    await this.inTransaction(() => {
      for (const job of jobs) {
        const finished = job.state.kind === "success" || job.state.kind === "failed" || job.state.kind === "canceled";
        if (finished && now - job.scheduledTime > FINISHED_JOB_RETENTION_MS) {
          this.database.fake._writes[this.database.fake._writes.length - 1][job._id] = null;
        } else if (job.state.kind === "inProgress") {
          // Only actions are marked in progress; the process that ran this one is gone.
          this.database.fake.patch(JOBS, job._id, { state: { kind: "failed" }, completedTime: now });
          interrupted++;
        }
      }
    });
    for (const job of jobs) {
      if (job.state.kind === "pending") {
        this.arm(job._id, job.scheduledTime);
        pending++;
      }
    }
    return { pending, interrupted };
  }

  /** Called when a function scheduled `jobId` to run at `at` (epoch ms). */
  scheduled(jobId: string, at: number): void {
    if (this.database.fake._documents[jobId] !== undefined) this.detached(() => this.arm(jobId, at));
    else this.uncommitted.set(jobId, { at, since: Date.now() });
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    if (this.starting !== null) clearImmediate(this.starting);
    this.due.length = 0;
  }

  private arm(jobId: string, at: number): void {
    if (this.closed) return;
    const wait = Math.min(Math.max(0, at - Date.now()), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.timers.delete(jobId);
      if (Date.now() < at) {
        this.arm(jobId, at);
        return;
      }
      this.due.push(jobId);
      this.startNext();
    }, wait);
    this.timers.set(jobId, timer);
  }

  /**
   * Starts due jobs on the next turn of the event loop, for about TURN_MS, then lets the loop
   * turn again. A transaction here never waits for I/O: jobs started together as their timers
   * fire together (a hundred workers and batches of ten tests released at once) would run back
   * to back and keep the process from reading or writing any socket, a worker's gateway request
   * or a client's mutation, until the last had run.
   */
  private startNext(): void {
    if (this.starting !== null || this.closed || this.due.length === 0) return;
    this.starting = setImmediate(() => void this.startDue());
  }

  private async startDue(): Promise<void> {
    const began = performance.now();
    try {
      let started = 0;
      while (!this.closed && this.due.length > 0 && started++ < JOBS_PER_TURN && performance.now() - began < TURN_MS) {
        const jobId = this.due.shift()!;
        const failed = (error: unknown) => this.log(`scheduled function ${jobId} failed to run: ${describe(error)}`);
        // Waits for a slot; the job then runs on by itself.
        await this.start(jobId).then((started) => {
          void started?.rest.catch(failed);
        }, failed);
      }
    } finally {
      this.starting = null;
      this.startNext();
    }
  }

  private async inTransaction<T>(work: () => T): Promise<T> {
    return (await untilCommitted(() => this.engine.enter(() => this.t.run(async () => work() as Value)))) as T;
  }

  private pending(jobId: string): JobDocument | null {
    const job = this.database.fake._documents[jobId] as JobDocument | undefined;
    return job && job.state.kind === "pending" ? job : null;
  }

  /**
   * Starts a job once one of the plan's scheduled-job slots is free (the others wait, as on a
   * deployment); resolves once it has started, with the rest of its run.
   */
  private async start(jobId: string): Promise<{ rest: Promise<void> } | undefined> {
    if (this.closed || !this.pending(jobId)) return;
    const slots = this.engine.plan.scheduledJobs;
    await slots.acquire();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      slots.release();
    };
    try {
      // Canceled or run meanwhile, or stopped: nothing to do.
      const job = this.pending(jobId);
      if (!job || this.closed) {
        release();
        return;
      }
      const info = await this.engine.functions.describe(job.name).catch(() => null);
      const args = (job.args[0] ?? {}) as Record<string, Value>;
      if (info?.kind === "mutation") return { rest: this.runMutation(jobId, job, args).finally(release) };
      const started = await this.inTransaction(() => {
        const current = this.database.fake.get(JOBS, jobId) as JobDocument | null;
        if (!current || current.state.kind !== "pending") return false;
        this.database.fake.patch(JOBS, jobId, { state: { kind: "inProgress" } });
        return true;
      });
      if (!started) {
        release();
        return;
      }
      return { rest: this.runAction(jobId, job, args).finally(release) };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * Runs a scheduled mutation until it commits or fails for a reason of its own: write conflicts
   * are retried without a count (transactions.ts), and so are a refusal for the write throughput
   * and a wait for a mutation slot that ran out (both before it ran), after a back-off.
   */
  private async runMutation(jobId: string, job: JobDocument, args: Record<string, Value>): Promise<void> {
    const marker = { jobId, marked: false };
    let outcome;
    for (let attempt = 0; ; attempt++) {
      outcome = await scheduledMutationStorage.run(marker, () =>
        this.engine.runFunction("mutation", job.name, args, null, { allowInternal: true }),
      );
      if (this.closed) return; // stopped meanwhile: the job stays pending for the next start
      if (outcome.success || !refusedBeforeRunning(outcome.errorMessage)) break;
      await sleep(Math.random() * Math.min(REFUSED_MAX_BACKOFF_MS, REFUSED_BACKOFF_MS * 2 ** Math.min(attempt, 20)));
      if (this.closed) return;
    }
    if (!outcome.success) {
      this.log(`Error when running scheduled function ${job.name}: ${outcome.errorMessage}`);
      await this.finish(jobId, "failed");
    } else if (!marker.marked) {
      await this.finish(jobId, "success");
    }
  }

  private async runAction(jobId: string, job: JobDocument, args: Record<string, Value>): Promise<void> {
    let outcome;
    for (let attempt = 0; ; attempt++) {
      outcome = await this.engine.runFunction(undefined, job.name, args, null, { allowInternal: true });
      // Stopped meanwhile: the next start marks the interrupted action failed.
      if (this.closed) return;
      // No action slot within the wait: it never ran, so it is started again (at most once still).
      if (outcome.success || !isSlotTimeout(outcome.errorMessage)) break;
      await sleep(Math.random() * Math.min(REFUSED_MAX_BACKOFF_MS, REFUSED_BACKOFF_MS * 2 ** Math.min(attempt, 20)));
      if (this.closed) return;
    }
    if (!outcome.success) this.log(`Error when running scheduled function ${job.name}: ${outcome.errorMessage}`);
    await this.finish(jobId, outcome.success ? "success" : "failed");
  }

  private async finish(jobId: string, kind: "success" | "failed"): Promise<void> {
    await this.inTransaction(() => {
      const job = this.database.fake.get(JOBS, jobId) as JobDocument | null;
      if (!job || job.state.kind === "canceled") return;
      this.database.fake.patch(JOBS, jobId, { state: { kind }, completedTime: Date.now() });
    });
  }
}
