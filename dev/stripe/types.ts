// The dev Stripe's objects, shaped like Stripe's API objects the app reads, and the running
// server's handle (./server.ts startStripe).
export interface StripeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  secretKey?: string;
  /** Where `checkout.session.completed` is POSTed after Pay. */
  webhookUrl: string;
  webhookSecret?: string;
  /** Keep sessions, line items, refunds and charges in this folder (the stack's data folder) across restarts. */
  dataDir?: string;
  /** With `dataDir`: forget what was kept there. */
  fresh?: boolean;
}

export interface CheckoutSession {
  id: string;
  object: "checkout.session";
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  customer_details: { email: string | null; name: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: "payment";
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: "unpaid" | "paid";
  status: "open" | "complete" | "expired";
  success_url: string;
  ui_mode: "hosted";
  url: string | null;
}

export interface LineItem {
  id: string;
  object: "item";
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  quantity: number;
  price: {
    id: string;
    object: "price";
    currency: string;
    unit_amount: number;
    product: string;
    type: "one_time";
  };
}

/** Stripe's Refund object (API reference: "The Refund object"). */
export interface Refund {
  id: string;
  object: "refund";
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  destination_details: { type: "card"; card: { type: "refund"; reference_status: "pending" } };
  metadata: Record<string, string>;
  payment_intent: string;
  reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: "succeeded";
  transfer_reversal: null;
}

export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: CheckoutSession };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: "checkout.session.completed";
}

export interface WebhookDelivery {
  eventId: string;
  url: string;
  /** HTTP status of the app's answer, or undefined when the POST failed. */
  status?: number;
  error?: string;
}

export interface RunningStripe {
  /** Origin of the server, e.g. http://127.0.0.1:PORT */
  url: string;
  port: number;
  host: string;
  sessions: Map<string, CheckoutSession>;
  /** Every refund made, by id. */
  refunds: Map<string, Refund>;
  /** Every event built, in order; deliveries records each webhook attempt. */
  events: StripeEvent[];
  deliveries: WebhookDelivery[];
  /** Live webhook target, for stacks that learn the app's URL after starting Stripe. */
  webhook: { url: string; secret: string };
  close(): Promise<void>;
}
