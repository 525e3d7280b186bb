import { ChevronDownIcon } from "lucide-react";
import { useState, type ReactNode } from "react";

import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { cn } from "@/lib/utils";

interface SetupSectionProps {
  /** Used for the heading id and data-testid="setup-section-{id}". */
  id: string;
  number: number;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** One numbered, collapsible section of the setup page; the heading toggles it. */
export function SetupSection({ id, number, title, description, children, className }: SetupSectionProps) {
  const [open, setOpen] = useState(true);
  const headingId = `setup-section-${id}-heading`;
  return (
    <Collapsible open={open} onOpenChange={setOpen} asChild>
      <section
        aria-labelledby={headingId}
        data-testid={`setup-section-${id}`}
        className={cn("rounded-xl border bg-card text-card-foreground shadow-xs", className)}
      >
        <h2 id={headingId} className="text-lg font-semibold">
          <CollapsibleTrigger className="flex w-full items-center gap-3 rounded-xl p-4 text-left outline-none hover:bg-accent/40 focus-visible:ring-[3px] focus-visible:ring-ring/50">
            <span
              aria-hidden="true"
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm text-primary-foreground"
            >
              {number}
            </span>
            <span className="flex-1">{title}</span>
            <ChevronDownIcon
              aria-hidden="true"
              className={cn("size-5 text-muted-foreground transition-transform", open && "rotate-180")}
            />
          </CollapsibleTrigger>
        </h2>
        <CollapsibleContent className="space-y-4 border-t px-4 pt-4 pb-5">
          {description && <p className="text-sm text-muted-foreground">{description}</p>}
          {children}
        </CollapsibleContent>
      </section>
    </Collapsible>
  );
}
