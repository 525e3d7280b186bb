import { Logo } from "@/components/logo";
import { MARKETING_LINKS } from "@/features/marketing/marketing-header";
import { MarketingLink } from "@/components/marketing-link";

// The header's page links hide below sm, so the footer shows them there instead; at any width
// each link name appears once on screen (and once in the accessibility tree).
export function MarketingFooter() {
  return (
    <footer className="border-t">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          <Logo />
          <p className="text-sm text-muted-foreground">AI model evaluation, judged by AI.</p>
        </div>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-muted-foreground">
          {MARKETING_LINKS.map(({ label, to }) => (
            <MarketingLink key={to} to={to} className="hover:text-foreground sm:hidden">
              {label}
            </MarketingLink>
          ))}
          <MarketingLink to="/awards" className="hover:text-foreground">
            Awards
          </MarketingLink>
        </nav>
      </div>
    </footer>
  );
}
