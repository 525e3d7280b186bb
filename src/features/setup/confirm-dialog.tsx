import { AlertTriangleIcon, InfoIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";

import { Spinner } from "@/components/spinner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

export type ConfirmVariant = "danger" | "warning" | "info";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  message: string;
  /** The thing acted on, shown under the message. */
  itemName?: string;
  confirmLabel: string;
  variant?: ConfirmVariant;
  /** Adds 'This action cannot be undone.' */
  irreversible?: boolean;
  /** The dialog shows 'Processing...' until this settles, then closes. */
  onConfirm: () => void | Promise<void>;
}

const icons = { danger: Trash2Icon, warning: AlertTriangleIcon, info: InfoIcon } as const;
const iconColors = { danger: "text-destructive", warning: "text-amber-500", info: "text-primary" } as const;

/** The generic confirmation dialog of spec part 1 §2. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  itemName,
  confirmLabel,
  variant = "info",
  irreversible = false,
  onConfirm,
}: ConfirmDialogProps) {
  const [processing, setProcessing] = useState(false);
  const Icon = icons[variant];

  async function confirm() {
    setProcessing(true);
    try {
      await onConfirm();
    } finally {
      setProcessing(false);
      onOpenChange(false);
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={(next) => !processing && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle className="flex items-center gap-2">
            <Icon aria-hidden="true" className={cn("size-5", iconColors[variant])} />
            {title}
          </AlertDialogTitle>
          <AlertDialogDescription>{message}</AlertDialogDescription>
        </AlertDialogHeader>
        {itemName && <p className="rounded-md bg-muted px-3 py-2 text-sm font-medium break-words">{itemName}</p>}
        {irreversible && <p className="text-sm text-destructive">This action cannot be undone.</p>}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={processing}>Cancel</AlertDialogCancel>
          <Button
            variant={variant === "danger" ? "destructive" : "default"}
            disabled={processing}
            onClick={() => void confirm()}
          >
            {processing && <Spinner className="text-current" label="Processing" />}
            {processing ? "Processing..." : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
