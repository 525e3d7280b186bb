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

/** At most `limit` holders at once; the others wait in arrival order. */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** The most holders seen at once (for tests and benches). */
  peak = 0;

  constructor(readonly limit: number) {}

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
      await new Promise<void>((resolve) => this.waiting.push(resolve));
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

/** The slots of one backend, per kind of function. */
export class PlanSlots {
  readonly queries: Slots;
  readonly mutations: Slots;
  readonly actions: Slots;
  readonly scheduledJobs: Slots;

  constructor(readonly plan: PlanName) {
    const limits = PLANS[plan];
    this.queries = new Slots(limits.queries);
    this.mutations = new Slots(limits.mutations);
    this.actions = new Slots(limits.actions);
    this.scheduledJobs = new Slots(limits.scheduledJobs);
  }
}
