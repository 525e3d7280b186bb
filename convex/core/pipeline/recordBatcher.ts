// Landed calls recorded in batches (docs/pipeline.md): what lands within a short window is sent
// in one mutation, bounded in rows and bytes, so a deployment's mutation slots (16 on Starter)
// record hundreds of calls in flight. A batch that fails after its attempts is sent again one
// result at a time, so one bad result does not cost the others; recording is idempotent by
// lease (core/pipeline/record.ts), so a batch sent again never counts a result twice.

/** How long the first result of a batch waits for others, and a batch's bounds. */
const RECORD_BATCH = {
  windowMs: 25,
  /** A ranking writes up to 100 evaluations: 32 of them stay far below Convex's 16,000 writes. */
  maxRows: 32,
  /** Arguments of one batch (Convex allows 16 MiB; each outcome's JSON size). */
  maxBytes: 1024 * 1024,
} as const;

/** Times a batch (or a single result) is sent before it is given up on. */
export const RECORD_ATTEMPTS = 4;

type Waiting<T> = { entry: T; bytes: number; resolve: () => void; reject: (error: unknown) => void };

export class RecordBatcher<T> {
  private open: Waiting<T>[] = [];
  private openBytes = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    /** Sends one batch in one mutation; throws when it did not commit (as far as the caller knows). */
    private readonly send: (entries: T[]) => Promise<unknown>,
    private readonly sizeOf: (entry: T) => number,
    private readonly pause: (attempt: number) => Promise<void>,
    private readonly bounds: { windowMs: number; maxRows: number; maxBytes: number } = RECORD_BATCH,
  ) {}

  /** Resolves once the entry's batch committed; rejects when it could not be recorded. */
  add(entry: T): Promise<void> {
    const bytes = this.sizeOf(entry);
    if (this.open.length > 0 && this.openBytes + bytes > this.bounds.maxBytes) this.flush();
    return new Promise<void>((resolve, reject) => {
      this.open.push({ entry, bytes, resolve, reject });
      this.openBytes += bytes;
      if (this.open.length >= this.bounds.maxRows) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.bounds.windowMs);
    });
  }

  /** Sends what waits now. */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.open;
    this.open = [];
    this.openBytes = 0;
    if (batch.length > 0) void this.deliver(batch);
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
