import { Link } from "@tanstack/react-router";
import { useConvexAuth } from "convex/react";

import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { MarketingThemeToggle } from "@/features/marketing/marketing-theme-toggle";
import { ABOUT_PATH, CONTACT_PATH, FEATURES_PATH } from "@/lib/paths";

export const MARKETING_LINKS: ReadonlyArray<{ label: string; to: string }> = [
  { label: "Features", to: FEATURES_PATH },
  { label: "About", to: ABOUT_PATH },
  { label: "Contact", to: CONTACT_PATH },
];

/** The header of the public pages: light on purpose, it loads before anyone signs in. */
export function MarketingHeader() {
  const { isAuthenticated, isLoading } = useConvexAuth();
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-4">
        <Link to={isAuthenticated ? "/dashboard" : "/"} aria-label="ModelJury home">
          <Logo />
        </Link>
        <nav aria-label="Site" className="hidden items-center gap-5 text-sm text-muted-foreground sm:flex">
          {MARKETING_LINKS.map(({ label, to }) => (
            <Link key={to} to={to} className="transition-colors hover:text-foreground">
              {label}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <MarketingThemeToggle />
          {isLoading ? null : isAuthenticated ? (
            <Button asChild>
              <Link to="/dashboard">Dashboard</Link>
            </Button>
          ) : (
            <>
              <Button variant="ghost" asChild>
                <Link to="/login">Sign In</Link>
              </Button>
              <Button asChild>
                <Link to="/signup">Sign Up</Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
