import { Link } from "@tanstack/react-router";
import { useConvexAuth } from "convex/react";

import { MobileMenu } from "@/components/layout/mobile-menu";
import { navItemsFor } from "@/components/layout/nav-items";
import { UserMenu } from "@/components/layout/user-menu";
import { Logo } from "@/components/logo";
import { ThemeToggle } from "@/components/theme-toggle";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { SpaceSwitcher } from "@/components/layout/space-switcher";
import { useViewer } from "@/hooks/use-viewer";

const linkClass =
  "inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground [&_svg]:size-4";

/**
 * The navigation bar of spec part 1 §2. The links and the avatar show from 1024 px (lg); narrower,
 * the menu button holds them (at 768 px the links, the space and the avatar did not fit: the
 * avatar was cut off and "Test Setup" wrapped). The logo's name and the space's name give way first.
 */
export function NavBar() {
  const { isAuthenticated } = useConvexAuth();
  const viewer = useViewer();
  const signedIn = isAuthenticated && viewer !== null;
  const items = signedIn ? navItemsFor(viewer) : [];

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-4 sm:gap-4">
        <Link to={signedIn ? "/dashboard" : "/"} aria-label="ModelJury home" className="shrink-0">
          <Logo nameClassName={signedIn ? "max-[420px]:sr-only" : "max-[380px]:sr-only"} />
        </Link>

        {signedIn && <SpaceSwitcher />}

        {signedIn && (
          <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
            {items.map(({ label, to, icon: Icon }) => (
              <Link
                key={to}
                to={to}
                className={linkClass}
                activeProps={{ className: "bg-accent text-accent-foreground", "aria-current": "page" }}
              >
                <Icon /> {label}
              </Link>
            ))}
          </nav>
        )}

        <div className="ml-auto flex shrink-0 items-center gap-1">
          <ThemeToggle />
          {signedIn ? (
            <>
              <div className="hidden lg:block">
                {viewer ? <UserMenu viewer={viewer} /> : <Skeleton className="size-8 rounded-full" />}
              </div>
              <MobileMenu items={items} viewer={viewer} />
            </>
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
