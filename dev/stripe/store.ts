// The dev Stripe's sessions, line items, refunds, charges and idempotent replies, kept in the stack's data folder
// (MJ_DATA_DIR, beside the backend's store) so an open checkout still opens after a restart.
// One JSON file, written whole to a temporary file and renamed over the old one: a crash
// mid-write leaves the previous state, never half a file.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { KeptReply } from "./idempotency";

export const STRIPE_STATE_FILE = "stripe.json";

export interface StripeState<Session, Item, Refund> {
  sessions: Session[];
  lineItems: Record<string, Item[]>;
  refunds: Refund[];
  charges: Record<string, string>;
  /** Idempotency key → the first answer (./idempotency.ts), so a retry after a restart gets it too. */
  idempotentReplies: Record<string, KeptReply>;
}

export class StripeStateFile<Session, Item, Refund> {
  private readonly file: string;

  constructor(dataDir: string, options: { fresh?: boolean } = {}) {
    mkdirSync(dataDir, { recursive: true });
    this.file = join(dataDir, STRIPE_STATE_FILE);
    if (options.fresh) rmSync(this.file, { force: true });
  }

  /** What was saved last, or null when nothing was (or the file is unreadable: then it starts empty). */
  load(): StripeState<Session, Item, Refund> | null {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return null;
    }
    try {
      const state = JSON.parse(text) as Partial<StripeState<Session, Item, Refund>>;
      return {
        sessions: state.sessions ?? [],
        lineItems: state.lineItems ?? {},
        refunds: state.refunds ?? [],
        charges: state.charges ?? {},
        idempotentReplies: state.idempotentReplies ?? {},
      };
    } catch (error) {
      console.warn(`[dev/stripe] ignoring unreadable ${this.file}: ${String(error)}`);
      return null;
    }
  }

  save(state: StripeState<Session, Item, Refund>): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(state));
    renameSync(temporary, this.file);
  }
}
