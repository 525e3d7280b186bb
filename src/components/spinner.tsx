import { Loader2Icon } from "lucide-react";

import { cn } from "@/lib/utils";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <Loader2Icon role="status" aria-label={label} className={cn("size-4 animate-spin text-muted-foreground", className)} />
  );
}

/** Shown while the session or a whole page loads. */
export function FullPageSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="flex min-h-[50dvh] flex-1 items-center justify-center" data-testid="full-page-spinner">
      <Spinner className="size-8" label={label} />
    </div>
  );
}
