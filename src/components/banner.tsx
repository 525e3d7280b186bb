import { AlertCircleIcon, CheckCircle2Icon } from "lucide-react";
import type { ReactNode } from "react";

import { cn } from "@/lib/utils";

/** The green success and red failure banners of the settings page (spec part 2 §8). */
export function Banner({
  tone,
  children,
  className,
}: {
  tone: "success" | "error";
  children: ReactNode;
  className?: string;
}) {
  const Icon = tone === "success" ? CheckCircle2Icon : AlertCircleIcon;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-tone={tone}
      className={cn(
        "flex items-start gap-2 rounded-lg border px-4 py-3 text-sm",
        tone === "success"
          ? "border-green-600/30 bg-green-600/10 text-green-800 dark:text-green-300"
          : "border-red-600/30 bg-red-600/10 text-red-800 dark:text-red-300",
        className,
      )}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 break-words">{children}</div>
    </div>
  );
}
