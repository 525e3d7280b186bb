import { cn, titleCase } from "@/lib/utils";

import type { JobStatus, PaymentStatus, TestStatus } from "../../convex/validators";

// Test statuses (pending, running, completed, failed, cancelled), job statuses (pending_payment,
// queued, processing, ...) and payment statuses (paid, ...) share one colour scheme (spec part 1 §2):
// done green, in progress blue with a pulsing dot, failed red, anything else yellow;
// cancelled is gray because nothing is waiting on it any more.
type Tone = "success" | "active" | "danger" | "muted" | "waiting";

// Every status of the three lists (convex/validators.ts) has its tone here: a new status does not
// type-check until it is given one.
const TONE_BY_STATUS: Readonly<Record<TestStatus | JobStatus | PaymentStatus, Tone>> = {
  completed: "success",
  paid: "success",
  running: "active",
  processing: "active",
  failed: "danger",
  cancelled: "muted",
  pending: "waiting",
  pending_payment: "waiting",
  queued: "waiting",
  // Payments: money returned is settled; a charge that differs from the quote needs a look.
  refund_pending: "waiting",
  refunded: "muted",
  amount_mismatch: "danger",
};

const TONE_CLASSES: Readonly<Record<Tone, { badge: string; dot: string }>> = {
  success: {
    badge: "border-green-600/30 bg-green-600/10 text-green-800 dark:text-green-300",
    dot: "bg-green-600 dark:bg-green-400",
  },
  active: {
    badge: "border-blue-600/30 bg-blue-600/10 text-blue-800 dark:text-blue-300",
    dot: "bg-blue-600 dark:bg-blue-400 animate-pulse",
  },
  danger: {
    badge: "border-red-600/30 bg-red-600/10 text-red-800 dark:text-red-300",
    dot: "bg-red-600 dark:bg-red-400",
  },
  muted: {
    badge: "border-border bg-muted text-muted-foreground",
    dot: "bg-muted-foreground",
  },
  waiting: {
    badge: "border-yellow-600/30 bg-yellow-500/10 text-yellow-800 dark:text-yellow-400",
    dot: "bg-yellow-500",
  },
};

export function statusTone(status: string): Tone {
  return Object.hasOwn(TONE_BY_STATUS, status) ? TONE_BY_STATUS[status as keyof typeof TONE_BY_STATUS] : "waiting";
}

/** 'pending_payment' → 'Pending Payment'. */
export const statusLabel = titleCase;

export function StatusBadge({ status, className }: { status: string; className?: string }) {
  const tone = statusTone(status);
  const classes = TONE_CLASSES[tone];
  return (
    <span
      data-slot="status-badge"
      data-status={status}
      data-tone={tone}
      className={cn(
        "inline-flex w-fit items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap",
        classes.badge,
        className,
      )}
    >
      <span aria-hidden="true" className={cn("size-1.5 rounded-full", classes.dot)} />
      {statusLabel(status)}
    </span>
  );
}

/** A test page's heading: the test's name and its status badge (monitor, results, shared results). */
export function TestTitle({ name, status, className }: { name: string; status: string; className?: string }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 className={cn("text-3xl font-bold tracking-tight break-words", className)}>{name}</h1>
      <StatusBadge status={status} />
    </div>
  );
}
