// The Jury advice card's body (issue 35 item 3): the advice in words (lib/juryAdvice.ts
// adviceRecordLines), whatever the advice query returned. The results page adds its buttons
// (features/jury-advice/jury-advice-card.tsx); the shared page shows it as it is.
import { ScaleIcon } from "lucide-react";
import type { ReactNode } from "react";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { adviceRecordLines, type AdviceInWords } from "../../../convex/lib/juryAdvice";

export const JURY_ADVICE_TITLE = "Jury advice";
export const JURY_ADVICE_COMPUTING = "Working out which judges the verdict needed…";

/** `advice`: undefined while loading, null until the ended test's advice is computed. */
export function JuryAdviceView({
  advice,
  children,
  footer,
}: {
  advice: AdviceInWords | null | undefined;
  /** Under the words once there is advice (the results page's buttons). */
  children?: ReactNode;
  /** After the card's content (the results page's Judge Again dialog). */
  footer?: ReactNode;
}) {
  return (
    <Card data-testid="jury-advice">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <ScaleIcon className="size-5" aria-hidden="true" /> {JURY_ADVICE_TITLE}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {advice === undefined ? (
          <Skeleton className="h-10 w-full" aria-label="Loading jury advice" />
        ) : advice === null ? (
          <p className="text-sm text-muted-foreground" aria-busy="true">
            {JURY_ADVICE_COMPUTING}
          </p>
        ) : (
          <>
            <ul className="space-y-1">
              {adviceRecordLines(advice).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            {children}
          </>
        )}
      </CardContent>
      {footer}
    </Card>
  );
}
