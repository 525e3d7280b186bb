import { executionAsyncResource } from "node:async_hooks";
// convex-test has no exports map: its tracker class is reachable by path.
import { TransactionMetricsTracker as UntypedTracker } from "convex-test/dist/transactionMetrics.js";

// What a transaction's attempt read and wrote: convex-test's transaction-limit tracker, whose
// reads and writes are also counted for the meter, and the per-execution pagination count a retry
// starts afresh (transactions.ts).

export type Limits = unknown;

export type Tracker = {
  startTransaction(limits: Limits): void;
  commit(): void;
  rollback(): void;
  trackRead(bytes: number): void;
  trackWrite(bytes: number): void;
};
type TrackerClass = new (config: unknown) => Tracker;
const TransactionMetricsTracker = UntypedTracker as TrackerClass;

/** What one attempt read and wrote, for the meter (documents and billed bytes). */
export type Usage = { documentsRead: number; bytesRead: number; documentsWritten: number; bytesWritten: number };

export function zeroUsage(): Usage {
  return { documentsRead: 0, bytesRead: 0, documentsWritten: 0, bytesWritten: 0 };
}

const KIB = 1024;
const owners = new WeakMap<Tracker, { usage: Usage }>();
let trackerPatched = false;

/** A metrics tracker whose reads and writes are also counted for the meter (per 1 KiB, as billed). */
export function newTracker(config: unknown, state: { usage: Usage }, previous?: Tracker | null): Tracker {
  if (!trackerPatched) {
    trackerPatched = true;
    const prototype = TransactionMetricsTracker.prototype;
    const trackRead = prototype.trackRead;
    const trackWrite = prototype.trackWrite;
    prototype.trackRead = function (this: Tracker, bytes: number) {
      const owner = owners.get(this);
      if (owner) {
        owner.usage.documentsRead++;
        owner.usage.bytesRead += Math.max(1, Math.ceil(bytes / KIB)) * KIB;
      }
      trackRead.call(this, bytes);
    };
    prototype.trackWrite = function (this: Tracker, bytes: number) {
      const owner = owners.get(this);
      if (owner) {
        owner.usage.documentsWritten++;
        owner.usage.bytesWritten += Math.max(1, Math.ceil(bytes / KIB)) * KIB;
      }
      trackWrite.call(this, bytes);
    };
  }
  const tracker = new TransactionMetricsTracker(
    previous ? (previous as unknown as { _config: unknown })._config : config,
  );
  owners.set(tracker, state);
  return tracker;
}

/**
 * convex-test allows one `.paginate()` per function execution and counts them on the execution
 * context it keeps in its own AsyncLocalStorage; a retry is a new execution. That storage is not
 * exported, so its store is found among the current async resource's symbol-keyed stores.
 */
export function resetPaginationCount(): void {
  const resource = executionAsyncResource() as Record<symbol, unknown>;
  for (const symbol of Object.getOwnPropertySymbols(resource)) {
    const store = resource[symbol];
    if (typeof store === "object" && store !== null && "paginatedQueries" in store && "udfType" in store) {
      (store as { paginatedQueries: number }).paginatedQueries = 0;
    }
  }
}
