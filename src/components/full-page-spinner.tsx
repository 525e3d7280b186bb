import { LoaderIcon } from "@/components/inline-icon";

/**
 * Shown while the session or a whole page loads. Every page's first load can show it, so it stays
 * apart from spinner.tsx, whose `cn` brings tailwind-merge, and draws its icon inline: every
 * page's first load counts against the landing page's 60 KB JavaScript budget.
 */
export function FullPageSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="flex min-h-[50dvh] flex-1 items-center justify-center" data-testid="full-page-spinner">
      <LoaderIcon role="status" aria-label={label} className="size-8 animate-spin text-muted-foreground" />
    </div>
  );
}
