import {
  BanIcon,
  CheckCircle2Icon,
  ClockIcon,
  CreditCardIcon,
  Loader2Icon,
  XCircleIcon,
  type LucideIcon,
} from "lucide-react";

import { StatusBadge, statusLabel } from "@/components/status-badge";
import { cn } from "@/lib/utils";
import type { JobStatus } from "../../../convex/lib/jobAnalysis";

const ICONS: Record<JobStatus, { icon: LucideIcon; className: string }> = {
  pending_payment: { icon: CreditCardIcon, className: "text-yellow-600" },
  queued: { icon: ClockIcon, className: "text-yellow-600" },
  processing: { icon: Loader2Icon, className: "animate-spin text-blue-600" },
  completed: { icon: CheckCircle2Icon, className: "text-green-600" },
  failed: { icon: XCircleIcon, className: "text-red-600" },
  cancelled: { icon: BanIcon, className: "text-muted-foreground" },
};

/** Each job status has its own icon (spec part 2 §4). */
export function JobStatusIcon({ status, className }: { status: JobStatus; className?: string }) {
  const { icon: Icon, className: tone } = ICONS[status];
  return <Icon role="img" aria-label={statusLabel(status)} className={cn("size-4 shrink-0", tone, className)} />;
}

export function JobStatusBadge({ status }: { status: JobStatus }) {
  return <StatusBadge status={status} />;
}
