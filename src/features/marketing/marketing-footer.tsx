import { Link } from "@tanstack/react-router";

import { Logo } from "@/components/logo";
import { AWARDS_PATH } from "@/lib/paths";

// The header carries the page links; the footer only adds what the header lacks, so every
// link name on the landing page stays unique.
export function MarketingFooter() {
  return (
    <footer className="border-t">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          <Logo />
          <p className="text-sm text-muted-foreground">AI model evaluation, judged by AI.</p>
        </div>
        <nav aria-label="Footer" className="text-sm text-muted-foreground">
          <Link to={AWARDS_PATH} className="hover:text-foreground">
            Awards
          </Link>
        </nav>
      </div>
    </footer>
  );
}
