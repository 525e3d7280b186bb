import { Loader2Icon } from "lucide-react";

import { cn } from "@/lib/utils";

export { FullPageSpinner } from "@/components/full-page-spinner";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <Loader2Icon
      role="status"
      aria-label={label}
      className={cn("size-4 animate-spin text-muted-foreground", className)}
    />
  );
}
