import { createHook } from "node:async_hooks";
import { threadCpuMs } from "./threadCpu.js";

// bench/password-check.ts reads it from here.
export { threadCpuMs };

/**
 * The time limit on a query's or mutation's own code, as a Convex deployment applies it: the
 * isolate's clock runs while the function's JavaScript runs and stops while a database call
 * (a syscall) is under way; past the limit (1 s; `DATABASE_UDF_USER_TIMEOUT_SECONDS` on a
 * self-hosted backend) the call fails with `Function execution timed out (maximum duration: 1s)`
 * (crates/isolate/src/timeout.rs and termination.rs of convex-backend) and a mutation writes
 * nothing.
 *
 * Here every transaction shares one thread, and their code interleaves at every await: the end
 * of a database call, of a `Promise.all`, of an async helper, or a library's own yield (Convex
 * Auth's scrypt awaits 32,768 times per password). So there is one clock for the thread, and each
 * of its intervals goes to the transaction whose code runs in it, or to no one. Whose code runs
 * is the async context's: an async hook's `before` and `after` mark every callback and promise
 * continuation the event loop runs, and `currentOwner` (transactions.ts) names the transaction
 * whose context it runs in. A continuation of another transaction's code, the server's own code
 * and the event loop waiting are charged to no one, so concurrent transactions are each charged
 * only their own code and never add up to more than the thread's time. A database call's own
 * work (convex-test does it synchronously, `databaseWork`) is charged to no one either.
 *
 * Wall time or CPU time: on a deployment the isolate has a core to itself; here 7 engineers'
 * tests share 2 cores, a busy loop of 300 ms wall time got 78 to 118 ms of CPU, and scrypt's
 * password check in `auth:store` took 500 to 1,100 ms of wall time for 250 to 365 ms of CPU. So
 * the intervals are measured with the wall clock (performance.now(), read only where the owner
 * changes) and, once a transaction's own code passes the limit, scaled by the share of the CPU
 * this thread got since the attempt began (its CPU time over wall time): an estimate of the
 * on-CPU time of its own code, which a loaded machine or a debugger paused at a breakpoint does
 * not inflate. The thread's CPU clock is /proc/thread-self/schedstat (nanoseconds on the CPU;
 * ~16 µs a read under load, so it is read when a transaction passes the limit and at most every
 * 50 ms at attempts' starts, which share the reading); where there is no /proc,
 * process.cpuUsage(), which also counts the process's other threads (the garbage collector's
 * helpers), hence the share's cap at 1. process.threadCpuUsage() would do it without /proc but
 * needs Node 23.9; this project runs on 20.
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
  /** Whether one of its database calls is doing its work (charged to no one). */
  inDatabase: boolean;
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
  return { ownMs: 0, sample: { wall: 0, cpu: 0 }, timedOut: false, inDatabase: false };
}

type CpuSample = { wall: number; cpu: number };

const SAMPLE_EVERY_MS = 50;
let lastSample: CpuSample = { wall: performance.now(), cpu: threadCpuMs() };

/** Whose code the thread is running since `since` (null: no transaction's). */
let running: UserCodeClock | null = null;
let since = performance.now();
/** Who ran before each callback under way began (callbacks can nest). */
const outer: (UserCodeClock | null)[] = [];

/** The running transaction's clock in the current async context (set by transactions.ts). */
export const currentOwner: { clock: () => UserCodeClock | null } = { clock: () => null };

/** From now on the thread runs `next`'s code (or no transaction's): the interval so far goes to whoever ran. */
function switchTo(next: UserCodeClock | null): void {
  if (next === running) return;
  const now = performance.now();
  if (running !== null) running.ownMs += now - since;
  running = next;
  since = now;
}

/** Charges the interval under way to whoever runs, so its clock is current. */
function flush(): void {
  if (running === null) return;
  const now = performance.now();
  running.ownMs += now - since;
  since = now;
}

function ownerHere(): UserCodeClock | null {
  const clock = currentOwner.clock();
  return clock === null || clock.inDatabase ? null : clock;
}

// Every callback and promise continuation: whose code runs in it, and who ran before it.
createHook({
  before() {
    // Callbacks nest only a few deep; a long stack means some ended without `after` (an uncaught error).
    if (outer.length > 1000) outer.length = 0;
    outer.push(running);
    switchTo(ownerHere());
  },
  after() {
    switchTo(outer.pop() ?? null);
  },
}).enable();

/** A handler attempt begins, in its transaction's context (a retry starts from nothing, as on a deployment). */
export function codeStarts(clock: UserCodeClock): void {
  switchTo(null);
  clock.ownMs = 0;
  clock.timedOut = false;
  clock.inDatabase = false;
  if (since - lastSample.wall > SAMPLE_EVERY_MS) lastSample = { wall: since, cpu: threadCpuMs() };
  clock.sample = lastSample;
  // The code that started it runs on in the transaction's context from here (its callback
  // began before the transaction existed).
  switchTo(clock);
}

/** Its code calls the database or its handler has ended: its clock is brought up to now. */
export function codeChecked(clock: UserCodeClock): void {
  if (running === clock) flush();
}

/** Runs a database call's own work (synchronous), charged to no one. */
export function databaseWork<T>(clock: UserCodeClock | null, work: () => T): T {
  if (clock === null) return work();
  const previous = running;
  switchTo(null);
  clock.inDatabase = true;
  try {
    return work();
  } finally {
    clock.inDatabase = false;
    switchTo(previous);
  }
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
