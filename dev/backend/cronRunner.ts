import { jsonToConvex } from "convex/values";
import type { JSONValue, Value } from "convex/values";
import type { Engine } from "./engine.js";
import { describe } from "./outcomes.js";

/** The shape of `Crons.crons` in convex/server/cron.ts. */
export type CronJobSpec = {
  name: string;
  args: JSONValue[];
  schedule:
    | { type: "interval"; seconds?: number; minutes?: number; hours?: number }
    | { type: "hourly"; minuteUTC?: number }
    | { type: "daily"; hourUTC: number; minuteUTC?: number }
    | { type: "weekly"; dayOfWeek: string; hourUTC: number; minuteUTC?: number }
    | { type: "monthly"; day: number; hourUTC: number; minuteUTC?: number }
    | { type: "cron"; cron: string };
};

// setTimeout holds 32-bit delays; longer waits are taken in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;
const DAYS_OF_WEEK = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Runs the jobs of convex/crons.ts on their schedules, one run per job at a time. */
export class CronRunner {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly jobs: Record<string, CronJobSpec>,
    private readonly log: (message: string) => void,
    private readonly now: () => number = Date.now,
    /** Where run times are kept across restarts; without it every schedule starts afresh. */
    private readonly runs?: {
      lastRun(identifier: string): number | undefined;
      recordRun(identifier: string, at: number): void;
    },
  ) {}

  start(): void {
    const startedAt = this.now();
    for (const [identifier, job] of Object.entries(this.jobs)) {
      try {
        // A job that was due while the backend was stopped runs once, now.
        const lastRun = this.runs?.lastRun(identifier);
        this.scheduleNext(identifier, job, nextRunAfter(job.schedule, lastRun ?? startedAt, identifier));
      } catch (error) {
        this.log(`cron "${identifier}" not scheduled: ${describe(error)}`);
      }
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private scheduleNext(identifier: string, job: CronJobSpec, at: number): void {
    if (this.closed) return;
    const wait = Math.min(Math.max(0, at - this.now()), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      if (this.now() < at) {
        this.scheduleNext(identifier, job, at);
        return;
      }
      void this.run(identifier, job).finally(() => {
        this.scheduleNext(identifier, job, nextRunAfter(job.schedule, Math.max(at, this.now()), identifier));
      });
    }, wait);
    timer.unref();
    this.timers.set(identifier, timer);
  }

  private async run(identifier: string, job: CronJobSpec): Promise<void> {
    try {
      this.runs?.recordRun(identifier, this.now());
    } catch (error) {
      this.log(`cron "${identifier}": run time not kept: ${describe(error)}`);
    }
    const args = jsonToConvex(job.args[0] ?? {}) as Record<string, Value>;
    const outcome = await this.engine.runFunction(undefined, job.name, args, null, {
      allowInternal: true,
    });
    if (!outcome.success) {
      this.log(`cron "${identifier}" (${job.name}) failed: ${outcome.errorMessage}`);
    } else if (outcome.kind === "query") {
      this.log(`cron "${identifier}" names a query (${job.name}); crons run mutations and actions`);
    }
  }
}

/** The first time after `after` (epoch ms) that the schedule fires. */
export function nextRunAfter(schedule: CronJobSpec["schedule"], after: number, identifier = ""): number {
  switch (schedule.type) {
    case "interval": {
      const ms = (schedule.seconds ?? 0) * 1000 + (schedule.minutes ?? 0) * 60_000 + (schedule.hours ?? 0) * 3_600_000;
      if (!(ms > 0)) throw new Error("interval must be positive");
      return after + ms;
    }
    case "hourly":
      return nextCronTime(`${schedule.minuteUTC ?? spreadMinute(identifier)} * * * *`, after);
    case "daily":
      return nextCronTime(`${schedule.minuteUTC ?? spreadMinute(identifier)} ${schedule.hourUTC} * * *`, after);
    case "weekly": {
      const day = DAYS_OF_WEEK.indexOf(schedule.dayOfWeek);
      return nextCronTime(`${schedule.minuteUTC ?? spreadMinute(identifier)} ${schedule.hourUTC} * * ${day}`, after);
    }
    case "monthly":
      return nextCronTime(
        `${schedule.minuteUTC ?? spreadMinute(identifier)} ${schedule.hourUTC} ${schedule.day} * *`,
        after,
      );
    case "cron":
      return nextCronTime(schedule.cron, after);
  }
}

// Like Convex, a job without a minute gets a fixed minute of its own.
function spreadMinute(identifier: string): number {
  let hash = 0;
  for (const char of identifier) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 60;
}

const MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

type CronField = { values: Set<number>; restricted: boolean };

function parseField(field: string, min: number, max: number, names: string[] = [], nameBase = 0): CronField {
  const values = new Set<number>();
  const toNumber = (token: string) => {
    const named = names.indexOf(token.toLowerCase().slice(0, 3));
    const value = named >= 0 && /^[a-z]/i.test(token) ? named + nameBase : Number(token);
    if (!Number.isInteger(value)) throw new Error(`bad cron value "${token}"`);
    return value;
  };
  for (const part of field.split(",")) {
    const [range, stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step <= 0) throw new Error(`bad cron step "${part}"`);
    let low: number;
    let high: number;
    if (range === "*" || range === "?") {
      [low, high] = [min, max];
    } else if (range!.includes("-")) {
      const [from, to] = range!.split("-");
      [low, high] = [toNumber(from!), toNumber(to!)];
    } else {
      low = toNumber(range!);
      high = stepText === undefined ? low : max;
    }
    for (let value = low; value <= high; value += step) values.add(value);
  }
  return { values, restricted: field !== "*" && field !== "?" };
}

/**
 * The next minute (UTC, epoch ms) after `after` matching a five-field cron
 * expression (minute hour day-of-month month day-of-week); a six-field one
 * with leading seconds is accepted and its seconds ignored.
 */
export function nextCronTime(expression: string, after: number): number {
  let fields = expression.trim().split(/\s+/);
  if (fields.length === 6) fields = fields.slice(1);
  if (fields.length !== 5) throw new Error(`unsupported cron expression "${expression}"`);
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = [
    parseField(fields[0]!, 0, 59),
    parseField(fields[1]!, 0, 23),
    parseField(fields[2]!, 1, 31),
    parseField(fields[3]!, 1, 12, MONTH_NAMES, 1),
    parseField(fields[4]!, 0, 7, DAY_NAMES),
  ];
  if (daysOfWeek.values.has(7)) daysOfWeek.values.add(0);
  const dayMatches = (date: Date) => {
    const byMonthDay = daysOfMonth.values.has(date.getUTCDate());
    const byWeekDay = daysOfWeek.values.has(date.getUTCDay());
    // Standard cron: when both are restricted, either one matching will do.
    if (daysOfMonth.restricted && daysOfWeek.restricted) return byMonthDay || byWeekDay;
    return byMonthDay && byWeekDay;
  };
  const candidate = new Date(Math.floor(after / 60_000) * 60_000 + 60_000);
  const limit = after + 5 * 366 * 24 * 3_600_000;
  while (candidate.getTime() <= limit) {
    if (!months.values.has(candidate.getUTCMonth() + 1) || !dayMatches(candidate)) {
      candidate.setUTCHours(0, 0, 0, 0);
      candidate.setUTCDate(candidate.getUTCDate() + 1);
      continue;
    }
    if (!hours.values.has(candidate.getUTCHours())) {
      candidate.setUTCMinutes(0, 0, 0);
      candidate.setUTCHours(candidate.getUTCHours() + 1);
      continue;
    }
    if (!minutes.values.has(candidate.getUTCMinutes())) {
      candidate.setUTCMinutes(candidate.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    return candidate.getTime();
  }
  throw new Error(`cron expression "${expression}" never fires`);
}
