// Landed calls recorded in batches (docs/pipeline.md), as a database's group commit: a result that
// lands while fewer than `maxOut` batches are out is sent at once, alone; what lands while they
// are out waits and goes together (bounded in rows and bytes) the moment one returns. A deployment's
// mutation slots (16 on Starter) so record hundreds of calls a second, and no answer waits in
// this action's memory for a window to close: an answer held only here is made again if the
// action dies (a kill, a deploy), so it is handed to a mutation as soon as one may be sent.
// A batch that fails after its attempts is sent again one result at a time, so one bad result
// does not cost the others; recording is idempotent by lease (core/pipeline/record.ts), so a
// batch sent again never counts a result twice.

/** A batch's bounds, and how many batches one worker has out at once. */
const RECORD_BATCH = {
  /** A ranking writes up to 100 evaluations: 32 of them stay far below Convex's 16,000 writes. */
  maxRows: 32,
  /** Arguments of one batch (Convex allows 16 MiB; each outcome's JSON size). */
  maxBytes: 1024 * 1024,
  /** Ten workers with two out each stay within their host's share of the mutation slots (hostCalls.ts). */
  maxOut: 2,
} as const;

/** Times a batch (or a single result) is sent before it is given up on. */
export const RECORD_ATTEMPTS = 4;

type Waiting<T> = { entry: T; bytes: number; resolve: () => void; reject: (error: unknown) => void };

export class RecordBatcher<T> {
  private waiting: Waiting<T>[] = [];
  private out = 0;

  constructor(
    /** Sends one batch in one mutation; throws when it did not commit (as far as the caller knows). */
    private readonly send: (entries: T[]) => Promise<unknown>,
    private readonly sizeOf: (entry: T) => number,
    private readonly pause: (attempt: number) => Promise<void>,
    private readonly bounds: { maxRows: number; maxBytes: number; maxOut: number } = RECORD_BATCH,
  ) {}

  /** Resolves once the entry's batch committed; rejects when it could not be recorded. */
  add(entry: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ entry, bytes: this.sizeOf(entry), resolve, reject });
      this.sendWaiting();
    });
  }

  /** Sends what waits, in batches within the bounds, while fewer than `maxOut` are out. */
  private sendWaiting(): void {
    while (this.out < this.bounds.maxOut && this.waiting.length > 0) {
      let bytes = this.waiting[0]!.bytes;
      let rows = 1;
      while (
        rows < this.waiting.length &&
        rows < this.bounds.maxRows &&
        bytes + this.waiting[rows]!.bytes <= this.bounds.maxBytes
      )
        bytes += this.waiting[rows++]!.bytes;
      const batch = this.waiting.splice(0, rows);
      this.out++;
      void this.deliver(batch).finally(() => {
        this.out--;
        this.sendWaiting();
      });
    }
  }

  private async attempts(entries: T[]): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send(entries);
      } catch (error) {
        if (attempt >= RECORD_ATTEMPTS) throw error;
        await this.pause(attempt);
      }
    }
  }

  private async deliver(batch: Waiting<T>[]): Promise<void> {
    try {
      await this.attempts(batch.map((waiting) => waiting.entry));
      for (const waiting of batch) waiting.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One at a time: a result the batch could not record does not hold back the others.
      await Promise.all(batch.map((waiting) => this.deliver([waiting])));
    }
  }
}
