/**
 * Convex's plan limits the local backend applies: how many queries, mutations, actions and
 * scheduled jobs run at once (work over a cap waits for a slot, as on a deployment) and how long an
 * action may run. `MJ_PLAN=starter|professional` (default professional) picks the column.
 *
 * Source: Convex's limits page, https://docs.convex.dev/production/state/limits, read from its
 * source in get-convex/convex-backend (npm-packages/docs/docs/production/state/limits.mdx; the
 * newest stored snapshot, of 2026-08-22, last changed 2026-08-12, these rows on 2026-07-17,
 * "Update convex runtime action limits (#54787)"):
 * - "Deployment Classes": Free/Starter run on S16, Professional on S256.
 * - "Concurrent Function Executions", columns S16 and S256: "Queries" 16 and 256, "Mutations" 16
 *   and 256, "Convex runtime actions and HTTP actions" 64 and 512, "Node actions" 64 and 256,
 *   "Scheduled jobs" 8 and 256. No module of convex/ is "use node", so actions take the Convex
 *   runtime row.
 * - "Execution time and scheduling": "Convex runtime action execution time" 30 minutes ("Node
 *   runtime action execution time" 10 minutes); "Query/mutation execution time" 1 second, "only
 *   to user code", not database operations (userCode.ts).
 * The figures here before (Starter 10 scheduled jobs; Professional 256 actions, 300 scheduled jobs;
 * actions 10 minutes) were the page of March 2026.
 */
export type PlanName = "starter" | "professional";

export type PlanLimits = {
  queries: number;
  mutations: number;
  /** Convex runtime actions and HTTP actions, together. */
  actions: number;
  scheduledJobs: number;
};

export const PLANS: Record<PlanName, PlanLimits> = {
  // S16 (Free/Starter).
  starter: { queries: 16, mutations: 16, actions: 64, scheduledJobs: 8 },
  // S256 (Professional).
  professional: { queries: 256, mutations: 256, actions: 512, scheduledJobs: 256 },
};

/** A Convex runtime action's time limit (V8_ACTION_USER_TIMEOUT_SECS, 1800, in convex-backend's knobs.rs). */
export const ACTION_TIMEOUT_MS = 30 * 60 * 1000;
/**
 * The deployment's error for a Convex runtime action past its time limit: the isolate's user
 * time-out, as for queries and mutations (crates/isolate/src/termination.rs, `UserTimeoutError`).
 */
export const ACTION_TIMEOUT_MESSAGE = "Function execution timed out (maximum duration: 1800s)";
/** A query's or mutation's own code may run this long (its database work excluded; userCode.ts). */
export const USER_CODE_LIMIT_MS = 1000;

/** MJ_USER_CODE_LIMIT_MS: milliseconds, 0 for no limit; unset, the deployment's 1 s. */
export function userCodeLimitFromEnv(value: string | undefined): number {
  if (value === undefined || value === "") return USER_CODE_LIMIT_MS;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error(`MJ_USER_CODE_LIMIT_MS must be milliseconds (0: no limit), not "${value}"`);
  return ms;
}

export function planFromEnv(value: string | undefined): PlanName {
  if (value === undefined || value === "") return "professional";
  if (value === "starter" || value === "professional") return value;
  throw new Error(`MJ_PLAN must be "starter" or "professional", not "${value}"`);
}

/**
 * How long a query or mutation waits for a slot (APPLICATION_FUNCTION_RUNNER_SEMAPHORE_TIMEOUT,
 * 5,000 ms) and an action or HTTP action (APPLICATION_FUNCTION_RUNNER_ACTION_SEMAPHORE_TIMEOUT,
 * 10,000 ms) before it is refused: convex-backend's crates/common/src/knobs.rs, applied in
 * crates/application/src/application_function_runner/mod.rs (`Limiter`). A scheduled job waits for
 * its own slot without a limit (the scheduler starts no more than the cap).
 */
export const SLOT_WAIT_MS = { queries: 5_000, mutations: 5_000, actions: 10_000 } as const;

/** The kind of function a slot is for, as the deployment's error names it. */
type SlotKind = "query" | "mutation" | "action";

/**
 * The deployment's error for a call that waited its whole time for a slot (`Limiter::
 * acquire_permit_with_timeout`: ErrorMetadata::rate_limited("TooManyConcurrentRequests", …)).
 */
export class TooManyConcurrentRequestsError extends Error {
  constructor(limit: number, kind: SlotKind) {
    super(
      `Too many concurrent requests. Your backend is limited to ${limit} concurrent ${kind}s. ${
        limit > PLANS.starter.queries
          ? "If you need more resources, please contact support."
          : "To get more resources, upgrade to Convex Pro. If you are already on Convex Pro, please contact support."
      }`,
    );
  }
}

/** Whether a failed call's message is a slot time-out (the scheduler tries such a job again). */
export function isSlotTimeout(message: string): boolean {
  return message.startsWith("Too many concurrent requests.");
}

/**
 * At most `limit` holders at once; the others wait in arrival order, each at most `waitMs`
 * (then TooManyConcurrentRequestsError; Infinity: as long as it takes).
 */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** The most holders seen at once (for tests and benches). */
  peak = 0;
  /** Calls refused after waiting `waitMs` for a slot. */
  timeouts = 0;

  constructor(
    readonly limit: number,
    readonly waitMs = Infinity,
    private readonly kind: SlotKind = "query",
  ) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async acquire(): Promise<void> {
    if (this.running < this.limit) {
      this.running++;
    } else {
      await new Promise<void>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const granted = () => {
          clearTimeout(timer);
          resolve();
        };
        this.waiting.push(granted);
        if (Number.isFinite(this.waitMs)) {
          timer = setTimeout(() => {
            const at = this.waiting.indexOf(granted);
            if (at === -1) return;
            this.waiting.splice(at, 1);
            this.timeouts++;
            reject(new TooManyConcurrentRequestsError(this.limit, this.kind));
          }, this.waitMs);
          timer.unref();
        }
      });
    }
    if (this.running > this.peak) this.peak = this.running;
  }

  release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next in line.
    if (next) next();
    else this.running--;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}

export type SlotWaits = { queries: number; mutations: number; actions: number };

/** The slots of one backend, per kind of function. */
export class PlanSlots {
  readonly queries: Slots;
  readonly mutations: Slots;
  readonly actions: Slots;
  readonly scheduledJobs: Slots;
  /** Bytes a second mutations may write (WRITE_THROUGHPUT_BYTES). */
  readonly writeBytesPerSecond: number;

  constructor(
    readonly plan: PlanName,
    waits: SlotWaits = SLOT_WAIT_MS,
  ) {
    const limits = PLANS[plan];
    this.queries = new Slots(limits.queries, waits.queries, "query");
    this.mutations = new Slots(limits.mutations, waits.mutations, "mutation");
    this.actions = new Slots(limits.actions, waits.actions, "action");
    this.scheduledJobs = new Slots(limits.scheduledJobs);
    this.writeBytesPerSecond = WRITE_THROUGHPUT_BYTES[plan];
  }
}

/**
 * "Mutation write throughput limit" of the limits page's "Concurrent Function Executions" table:
 * S16 4 MiB, S256 8 MiB (a second: knobs.rs MAX_BYTES_WRITTEN_PER_SECOND, 4 MiB by default, over
 * WRITE_THROUGHPUT_WINDOW, 1,000 ms; the per-class figure is the page's).
 */
export const WRITE_THROUGHPUT_BYTES: Record<PlanName, number> = {
  starter: 4 * 1024 * 1024,
  professional: 8 * 1024 * 1024,
};
