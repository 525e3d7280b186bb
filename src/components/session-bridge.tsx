import { useConvexAuth } from "convex/react";
import { useMemo, type ReactNode } from "react";

import { EndedSessionWatcher } from "@/components/ended-session";
import { SessionContext } from "@/lib/session";

/** Hands Convex Auth's session to the pages that read it without importing Convex (lib/session.ts). */
export function SessionBridge({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const session = useMemo(() => ({ isLoading, isAuthenticated }), [isLoading, isAuthenticated]);
  return (
    <SessionContext.Provider value={session}>
      <EndedSessionWatcher />
      {children}
    </SessionContext.Provider>
  );
}
