/**
 * Convex's plan limits the local backend applies (docs.convex.dev/production/state/limits,
 * "Concurrent Function Executions"): how many queries, mutations, actions and scheduled jobs run
 * at once; work over a cap waits for a slot, as on a deployment. `MJ_PLAN=starter|professional`
 * (default professional) picks the column.
 */
export type PlanName = "starter" | "professional";

export type PlanLimits = {
  queries: number;
  mutations: number;
  actions: number;
  scheduledJobs: number;
};

export const PLANS: Record<PlanName, PlanLimits> = {
  // Free/Starter: 16 queries, 16 mutations, 64 actions, 10 scheduled jobs at once.
  starter: { queries: 16, mutations: 16, actions: 64, scheduledJobs: 10 },
  // Professional: 256 queries, 256 mutations, 256 actions (Convex runtime), 300 scheduled jobs.
  professional: { queries: 256, mutations: 256, actions: 256, scheduledJobs: 300 },
};

/** An action's time limit on a deployment. */
export const ACTION_TIMEOUT_MS = 10 * 60 * 1000;
/** The deployment's error for an action past its time limit. */
export const ACTION_TIMEOUT_MESSAGE = "Your function ran for too long (limit: 600 seconds).";
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
