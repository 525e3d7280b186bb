import { Link, useNavigate } from "@tanstack/react-router";
import { useConvexAuth } from "convex/react";
import { useEffect, useState, type ReactNode } from "react";

import { Logo } from "@/components/logo";
import { FullPageSpinner } from "@/components/spinner";
import { ThemeToggle } from "@/components/theme-toggle";
import { postAuthDestination } from "@/lib/navigation";

/**
 * The frame of the sign-in and sign-up screens. Once a user is present it replaces the page
 * with the originally requested location (the `redirect` search parameter), else /dashboard.
 */
export function AuthLayout({ redirect, children }: { redirect: string | undefined; children: ReactNode }) {
  const { isAuthenticated, isLoading } = useConvexAuth();
  const navigate = useNavigate();
  const destination = postAuthDestination(redirect);
  // Only the first session check hides the form: signing in makes the session load again, and
  // unmounting the form then would lose what it is showing.
  const [sessionKnown, setSessionKnown] = useState(!isLoading);

  useEffect(() => {
    if (!isLoading) setSessionKnown(true);
  }, [isLoading]);

  useEffect(() => {
    if (isAuthenticated) void navigate({ href: destination, replace: true });
  }, [isAuthenticated, destination, navigate]);

  return (
    <CenteredFrame>
      {!sessionKnown || isAuthenticated ? (
        <FullPageSpinner label="Loading your session" />
      ) : (
        <div className="w-full max-w-md">{children}</div>
      )}
    </CenteredFrame>
  );
}

/** The logo and theme toggle above one centered column: the auth screens' and the invitation page's frame. */
export function CenteredFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <header className="flex h-14 items-center justify-between px-4">
        <Link to="/" aria-label="ModelJury home">
          <Logo />
        </Link>
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center">{children}</main>
    </div>
  );
}
