/**
 * What a Convex deployment would count for each function: calls (each top-level run; a
 * subscription re-run is one too, and billed as a function call), write conflicts found, retries,
 * failures (time-outs of a query's or mutation's own code among them), and the documents and
 * bytes read and written (bytes per document rounded up to 1 KiB, as database bandwidth is
 * billed). Reads of attempts that were retried count too: they happened.
 * Served by the local backend at GET /_dev/meter (POST /_dev/meter/reset) and on
 * `RunningBackend.meter`; a bench takes a snapshot before a test run and the difference after.
 */
export type FunctionMeter = {
  calls: number;
  conflicts: number;
  retries: number;
  failures: number;
  /** Calls failed because their own code ran past the time limit (also counted in failures). */
  timeouts: number;
  /**
   * The longest own code of one attempt, in milliseconds as the time limit measures it (userCode.ts):
   * the headroom under the 1 s limit. A maximum: a difference of readings gives the later one's
   * when it grew, and a total the largest.
   */
  ownCodeMsMax: number;
  subscriptionReruns: number;
  documentsRead: number;
  bytesRead: number;
  documentsWritten: number;
  bytesWritten: number;
  /** Milliseconds of action execution (for GiB-hours). */
  actionMs: number;
};

export type MeterReading = Record<string, FunctionMeter>;

function zero(): FunctionMeter {
  return {
    calls: 0,
    conflicts: 0,
    retries: 0,
    failures: 0,
    timeouts: 0,
    ownCodeMsMax: 0,
    subscriptionReruns: 0,
    documentsRead: 0,
    bytesRead: 0,
    documentsWritten: 0,
    bytesWritten: 0,
    actionMs: 0,
  };
}

type Usage = { documentsRead: number; bytesRead: number; documentsWritten: number; bytesWritten: number };

export class Meter {
  private byPath = new Map<string, FunctionMeter>();
  /** Conflicts by where they came from: "function ← table by writing function". */
  private sources = new Map<string, number>();

  private of(path: string): FunctionMeter {
    let entry = this.byPath.get(path);
    if (entry === undefined) {
      entry = zero();
      this.byPath.set(path, entry);
    }
    return entry;
  }

  recordCall(path: string): void {
    this.of(path).calls++;
  }
  recordConflict(path: string, source?: { table: string; by: string | null }): void {
    this.of(path).conflicts++;
    if (source) {
      const key = `${path} ← ${source.table} by ${source.by ?? "(inline)"}`;
      this.sources.set(key, (this.sources.get(key) ?? 0) + 1);
    }
  }

  /** Conflicts so far by their source ("function ← table by writing function"). */
  readConflictSources(): Record<string, number> {
    return Object.fromEntries(this.sources);
  }
  recordRetry(path: string): void {
    this.of(path).retries++;
  }
  recordFailure(path: string): void {
    this.of(path).failures++;
  }
  recordTimeout(path: string): void {
    this.of(path).timeouts++;
  }
  recordOwnCode(path: string, ms: number): void {
    const entry = this.of(path);
    if (ms > entry.ownCodeMsMax) entry.ownCodeMsMax = ms;
  }
  recordRerun(path: string): void {
    this.of(path).subscriptionReruns++;
  }
  recordAction(path: string, ms: number): void {
    this.of(path).actionMs += ms;
  }
  /** An attempt that ended without committing: its reads. */
  recordReads(path: string, usage: Usage): void {
    const entry = this.of(path);
    entry.documentsRead += usage.documentsRead;
    entry.bytesRead += usage.bytesRead;
  }
  /** A committed attempt: its reads and writes. */
  recordCommit(path: string, usage: Usage): void {
    this.recordReads(path, usage);
    const entry = this.of(path);
    entry.documentsWritten += usage.documentsWritten;
    entry.bytesWritten += usage.bytesWritten;
  }

  /** A copy of every function's figures so far. */
  read(): MeterReading {
    const reading: MeterReading = {};
    for (const [path, entry] of [...this.byPath].sort(([a], [b]) => a.localeCompare(b))) reading[path] = { ...entry };
    return reading;
  }

  reset(): void {
    this.byPath.clear();
    this.sources.clear();
  }
}

/** What happened between two readings (`later` minus `earlier`), per function. */
export function meterDifference(later: MeterReading, earlier: MeterReading): MeterReading {
  const difference: MeterReading = {};
  for (const [path, entry] of Object.entries(later)) {
    const before = earlier[path] ?? zero();
    const delta = zero();
    let any = false;
    for (const key of Object.keys(delta) as (keyof FunctionMeter)[]) {
      if (key === "ownCodeMsMax") delta[key] = entry[key] > before[key] ? entry[key] : 0;
      else delta[key] = entry[key] - before[key];
      if (delta[key] !== 0) any = true;
    }
    if (any) difference[path] = delta;
  }
  return difference;
}

/** The figures of every function added together. */
export function meterTotal(reading: MeterReading): FunctionMeter {
  const total = zero();
  for (const entry of Object.values(reading)) {
    for (const key of Object.keys(total) as (keyof FunctionMeter)[]) {
      total[key] = key === "ownCodeMsMax" ? Math.max(total[key], entry[key]) : total[key] + entry[key];
    }
  }
  return total;
}

/** One meter per process (functions share it, as they share process.env: one backend at a time). */
export const meter = new Meter();

/** Conflicts by source between two readings of readConflictSources (`later` minus `earlier`). */
export function conflictSourcesDifference(
  later: Record<string, number>,
  earlier: Record<string, number>,
): Record<string, number> {
  const difference: Record<string, number> = {};
  for (const [key, count] of Object.entries(later)) {
    const delta = count - (earlier[key] ?? 0);
    if (delta !== 0) difference[key] = delta;
  }
  return difference;
}
