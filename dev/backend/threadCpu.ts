import { closeSync, openSync, readSync } from "node:fs";
import { cpuUsage } from "node:process";

/**
 * This thread's CPU time in milliseconds: /proc/thread-self/schedstat (nanoseconds on the CPU;
 * ~16 µs a read under load), or where there is no /proc, process.cpuUsage(), which also counts
 * the process's other threads. Unlike the wall clock, a loaded machine does not inflate it: the
 * time a thread waits for a core is not counted (userCode.ts; tests bounding a computation's cost).
 */
export const threadCpuMs: () => number = (() => {
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
