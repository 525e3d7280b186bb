// What the dev Stripe knows (sessions, line items, refunds, charges, events), kept in memory and,
// with a data folder, in its stripe.json (./store.ts) after every change.
import { noSuch } from "./errors";
import type { KeptReply } from "./idempotency";
import { nowSeconds } from "./params";
import { StripeStateFile } from "./store";
import type { CheckoutSession, LineItem, Refund, StripeEvent, StripeOptions, WebhookDelivery } from "./types";

export class StripeMemory {
  readonly sessions = new Map<string, CheckoutSession>();
  readonly lineItems = new Map<string, LineItem[]>();
  readonly refunds = new Map<string, Refund>();
  /** The charge behind each paid session (session id → ch_…). */
  readonly charges = new Map<string, string>();
  readonly events: StripeEvent[] = [];
  readonly deliveries: WebhookDelivery[] = [];
  /** Idempotency key → the first answer to it (./idempotency.ts). */
  readonly idempotentReplies = new Map<string, KeptReply>();
  /** The server's origin, known once it listens. */
  origin = "";
  private readonly stateFile: StripeStateFile<CheckoutSession, LineItem, Refund> | null;

  constructor(
    options: Pick<StripeOptions, "dataDir" | "fresh">,
    readonly webhook: { url: string; secret: string },
  ) {
    this.stateFile = options.dataDir
      ? new StripeStateFile<CheckoutSession, LineItem, Refund>(options.dataDir, { fresh: options.fresh })
      : null;
    const saved = this.stateFile?.load();
    if (saved) {
      for (const session of saved.sessions) this.sessions.set(session.id, session);
      for (const [id, items] of Object.entries(saved.lineItems)) this.lineItems.set(id, items);
      for (const refund of saved.refunds) this.refunds.set(refund.id, refund);
      for (const [id, charge] of Object.entries(saved.charges)) this.charges.set(id, charge);
      for (const [key, reply] of Object.entries(saved.idempotentReplies)) this.idempotentReplies.set(key, reply);
    }
  }

  /** Writes the state to the data folder (when there is one) after every change. */
  persist(): void {
    this.stateFile?.save({
      sessions: [...this.sessions.values()],
      lineItems: Object.fromEntries(this.lineItems),
      refunds: [...this.refunds.values()],
      charges: Object.fromEntries(this.charges),
      idempotentReplies: Object.fromEntries(this.idempotentReplies),
    });
  }

  sessionOrThrow(id: string): CheckoutSession {
    const session = this.sessions.get(id);
    if (!session) throw noSuch("checkout.session", id);
    return session;
  }

  expireIfDue(session: CheckoutSession): void {
    if (session.status === "open" && session.expires_at <= nowSeconds()) {
      session.status = "expired";
      session.url = null;
      this.persist();
    }
  }
}
