import { closeSync, openSync, readSync } from "node:fs";
import { cpuUsage } from "node:process";

/**
 * The time limit on a query's or mutation's own code, as a Convex deployment applies it: the
 * isolate's clock runs while the function's JavaScript runs and stops while a database call
 * (a syscall) is under way; past the limit (1 s; `DATABASE_UDF_USER_TIMEOUT_SECONDS` on a
 * self-hosted backend) the call fails with `Function execution timed out (maximum duration: 1s)`
 * (crates/isolate/src/timeout.rs and termination.rs of convex-backend) and a mutation writes
 * nothing.
 *
 * Here every transaction shares one thread, and their code interleaves at each await. So the
 * clock is not "wall time minus time in database calls" per transaction (a transaction would be
 * charged for every other one running meanwhile), but one clock for the thread whose intervals
 * go to at most one transaction each. The runtime hooks mark the points where code changes hands:
 *
 * - `codeStarts`: a handler attempt begins; its code runs from here.
 * - `codeYields`: its code calls the database (or its handler ends). The interval just ended was
 *   its own code, unless nobody's code was known to run (then it is charged to no one).
 * - `databaseReturned`: the database call's own work is done (convex-test does it synchronously):
 *   that interval is charged to no one, and the caller's code goes on.
 * - `codeResumes`: an awaited database call resolved; the interval since the last mark goes to
 *   whoever's code was running, and the caller's code runs from here.
 *
 * What cannot be seen is a transaction resuming from an await that is not a database call (the
 * end of a `Promise.all`, an async helper): its code is then charged to the transaction whose
 * code ran before, or, at its next database call, to itself. Each interval is charged once, so
 * concurrent transactions never add up to more than the thread's time.
 *
 * Wall time or CPU time: on a deployment the isolate has a core to itself; here 7 engineers'
 * tests share 2 cores, a busy loop of 300 ms wall time got 78 to 118 ms of CPU, and scrypt's
 * password check in `auth:store` took 500 to 1,100 ms of wall time for 250 to 365 ms of CPU. So
 * the intervals are measured with the wall clock (performance.now(), 0.2 µs a read) and, once a
 * transaction's own code passes the limit, scaled by the share of the CPU this thread got since
 * the attempt began (its CPU time over wall time): an estimate of the on-CPU time of its own code,
 * which a loaded machine or a debugger paused at a breakpoint does not inflate. The thread's CPU
 * clock is /proc/thread-self/schedstat (nanoseconds on the CPU; ~16 µs a read under load, so it
 * is read when a transaction passes the limit and at most every 50 ms at attempts' starts, which
 * share the reading); where there is no /proc, process.cpuUsage(), which also counts the
 * process's other threads (the garbage collector's helpers), hence the share's cap at 1.
 * process.threadCpuUsage() would do it without /proc but needs Node 23.9; this project runs on 20.
 *
 * A function that never calls the database and never returns cannot be stopped here (a deployment
 * terminates its isolate); everything else is checked at its next database call and when its
 * handler ends, and a timed-out transaction's further database calls fail too, so catching the
 * error does not save it.
 */
export type UserCodeClock = {
  /** Wall-clock milliseconds of the attempt's own code so far. */
  ownMs: number;
  /** Where its CPU share is measured from: the wall and CPU clocks (ms) read at most 50 ms before it began. */
  sample: CpuSample;
  /** Set once the attempt has run past the limit: it fails, whatever its code does next. */
  timedOut: boolean;
};

/** The deployment's error for a query or mutation whose own code ran past the limit. */
export class UserTimeoutError extends Error {
  constructor(limitMs: number) {
    super(`Function execution timed out (maximum duration: ${durationText(limitMs)})`);
    this.name = "UserTimeoutError";
  }
}

/** A duration as Rust's `Debug` for `Duration` prints it ("1s", "1.5s", "300ms"), as the message has it. */
export function durationText(ms: number): string {
  return ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
}

export function newUserCodeClock(): UserCodeClock {
  return { ownMs: 0, sample: { wall: 0, cpu: 0 }, timedOut: false };
}

type CpuSample = { wall: number; cpu: number };

/** This thread's CPU time in milliseconds (see above). */
const threadCpuMs: () => number = (() => {
  try {
    const fd = openSync("/proc/thread-self/schedstat", "r");
    const buffer = Buffer.alloc(128);
    const read = () => {
      const length = readSync(fd, buffer, 0, buffer.length, 0);
      return Number(buffer.toString("latin1", 0, length).split(" ")[0]) / 1e6;
    };
    if (Number.isFinite(read())) return read;
    closeSync(fd);
  } catch {
    // No /proc: the process's CPU time instead.
  }
  return () => {
    const { user, system } = cpuUsage();
    return (user + system) / 1000;
  };
})();

const SAMPLE_EVERY_MS = 50;
let lastSample: CpuSample = { wall: performance.now(), cpu: threadCpuMs() };

/** Whose code the thread is running since the last mark (null: nobody's known). */
let owner: UserCodeClock | null = null;
let since = performance.now();

function charge(to: UserCodeClock | null): void {
  const now = performance.now();
  if (to !== null) to.ownMs += now - since;
  since = now;
}

/** A handler attempt begins (a retry starts from nothing, as on a deployment). */
export function codeStarts(clock: UserCodeClock): void {
  charge(owner);
  clock.ownMs = 0;
  clock.timedOut = false;
  if (since - lastSample.wall > SAMPLE_EVERY_MS) lastSample = { wall: since, cpu: threadCpuMs() };
  clock.sample = lastSample;
  owner = clock;
}

/** Its code calls the database, or its handler has ended. */
export function codeYields(clock: UserCodeClock): void {
  // Someone's code ran and this one's ends the interval: its own (see above).
  charge(owner === null ? null : clock);
  owner = null;
}

/** The database call's own work is done; the caller's code goes on. */
export function databaseReturned(clock: UserCodeClock): void {
  charge(null);
  owner = clock;
}

/** An awaited database call resolved; the caller's code runs from here. */
export function codeResumes(clock: UserCodeClock): void {
  charge(owner);
  owner = clock;
}

/**
 * Whether the attempt's own code has run past `limitMs` (0: no limit), as an estimate of its CPU
 * time (see above); once it has, it stays timed out.
 */
export function pastLimit(clock: UserCodeClock, limitMs: number): boolean {
  if (clock.timedOut) return true;
  if (limitMs <= 0 || clock.ownMs <= limitMs) return false;
  clock.timedOut = ownCodeMs(clock) > limitMs;
  return clock.timedOut;
}

/** The attempt's own code so far, as an estimate of its CPU time (see above). */
export function ownCodeMs(clock: UserCodeClock): number {
  const wall = performance.now() - clock.sample.wall;
  const cpu = threadCpuMs() - clock.sample.cpu;
  return clock.ownMs * (wall > 0 ? Math.min(1, cpu / wall) : 1);
}
