import { Logo } from "@/components/logo";
import { buttonVariants } from "@/components/ui/button-variants";
import { MarketingThemeToggle } from "@/features/marketing/marketing-theme-toggle";
import { useSession } from "@/lib/session";
import { MarketingLink } from "@/components/marketing-link";
import { SESSION_VIEW_ATTRIBUTE, SIGNED_IN_HREF_ATTRIBUTE, useStaticMarkup } from "@/features/marketing/static-markup";

// Literal paths, checked against the route tree by MarketingLink's type: the landing page's chunk
// must not share modules with the signed-in screens (vite.config.ts).
export const MARKETING_LINKS = [
  { label: "Features", to: "/features" },
  { label: "About", to: "/about" },
  { label: "Contact", to: "/contact" },
] as const;

/**
 * The header of the public pages: light on purpose, it loads before anyone signs in. Until the
 * backend is mounted, "signed in" means a stored session (lib/session.ts).
 */
export function MarketingHeader() {
  const { isAuthenticated, isLoading } = useSession();
  const staticMarkup = useStaticMarkup();
  const signedInLinks = (
    <MarketingLink to="/dashboard" className={buttonVariants()}>
      Dashboard
    </MarketingLink>
  );
  const signedOutLinks = (
    <>
      <MarketingLink to="/login" className={buttonVariants({ variant: "ghost" })}>
        Sign In
      </MarketingLink>
      <MarketingLink to="/signup" className={buttonVariants()}>
        Sign Up
      </MarketingLink>
    </>
  );
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4 sm:gap-6">
        <MarketingLink
          to={isAuthenticated ? "/dashboard" : "/"}
          aria-label="ModelJury home"
          {...(staticMarkup ? { [SIGNED_IN_HREF_ATTRIBUTE]: "/dashboard" } : {})}
        >
          {/* The name gives way on the narrowest phones, where it pushed Sign Up out of the window. */}
          <Logo nameClassName="max-[380px]:sr-only" />
        </MarketingLink>
        <nav aria-label="Site" className="hidden items-center gap-5 text-sm text-muted-foreground sm:flex">
          {MARKETING_LINKS.map(({ label, to }) => (
            <MarketingLink key={to} to={to} className="transition-colors hover:text-foreground">
              {label}
            </MarketingLink>
          ))}
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-1">
          <MarketingThemeToggle />
          {staticMarkup ? (
            <>
              <span {...{ [SESSION_VIEW_ATTRIBUTE]: "signed-in" }} className="contents" hidden>
                {signedInLinks}
              </span>
              <span {...{ [SESSION_VIEW_ATTRIBUTE]: "signed-out" }} className="contents">
                {signedOutLinks}
              </span>
            </>
          ) : isLoading ? null : isAuthenticated ? (
            signedInLinks
          ) : (
            signedOutLinks
          )}
        </div>
      </div>
    </header>
  );
}
