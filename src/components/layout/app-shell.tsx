import type * as React from "react";

import { NavBar } from "@/components/layout/nav-bar";
import { SpaceProvider } from "@/lib/space-context";

/** The common layout of signed-in screens: the navigation bar above the page, in the chosen space (useSpace). */
export function AppShell({ children }: { children: React.ReactNode }) {
  return (
    <SpaceProvider>
      <div className="flex min-h-dvh flex-col bg-background">
        <NavBar />
        <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 md:py-8">{children}</main>
      </div>
    </SpaceProvider>
  );
}
