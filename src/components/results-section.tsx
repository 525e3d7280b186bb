import { ChevronDownIcon } from "lucide-react";
import { useId, useState, type ReactNode } from "react";

import { Card } from "@/components/ui/card";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { cn } from "@/lib/utils";

interface ResultsSectionProps {
  title: string;
  description?: string;
  defaultOpen?: boolean;
  /** Shown beside the title, e.g. a count. */
  aside?: ReactNode;
  children: ReactNode;
}

/**
 * A collapsible card. Closed content is not mounted, so a closed list does not subscribe to
 * its query until it is opened.
 */
export function ResultsSection({ title, description, defaultOpen = false, aside, children }: ResultsSectionProps) {
  const [open, setOpen] = useState(defaultOpen);
  const headingId = useId();
  return (
    <Card className="gap-0 py-0">
      <Collapsible open={open} onOpenChange={setOpen}>
        <h2 id={headingId} className="text-lg font-semibold">
          <CollapsibleTrigger className="flex w-full items-center gap-3 rounded-xl px-6 py-4 text-left outline-none hover:bg-muted/40 focus-visible:ring-[3px] focus-visible:ring-ring/50">
            <span className="flex-1">
              {title}
              {description && <span className="block text-sm font-normal text-muted-foreground">{description}</span>}
            </span>
            {aside && <span className="text-sm font-normal text-muted-foreground">{aside}</span>}
            <ChevronDownIcon
              aria-hidden="true"
              className={cn("size-5 shrink-0 transition-transform", open && "rotate-180")}
            />
          </CollapsibleTrigger>
        </h2>
        <CollapsibleContent>
          <section aria-labelledby={headingId} className="border-t px-6 py-5">
            {children}
          </section>
        </CollapsibleContent>
      </Collapsible>
    </Card>
  );
}
