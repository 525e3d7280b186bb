import { createContext, useContext, useSyncExternalStore } from "react";

import { hasStoredSession } from "@/lib/stored-session";

export { authTokenStorageKey, convexUrl, hasStoredSession } from "@/lib/stored-session";

// The session as the pages outside the backend see it. The Convex client and Convex Auth load
// only for pages that talk to the backend (see components/backend-boundary.tsx); until then the
// public pages judge "signed in" from the token Convex Auth keeps in localStorage, and once the
// backend is mounted it provides the real state here.

export interface SessionState {
  isLoading: boolean;
  isAuthenticated: boolean;
}

/** Provided by the backend provider once it is mounted; null before. */
export const SessionContext = createContext<SessionState | null>(null);

function subscribeToStorage(onChange: () => void): () => void {
  // Another tab signing in or out changes the token.
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

/** Whether a token is stored, following other tabs. */
export function useStoredSession(): boolean {
  return useSyncExternalStore(subscribeToStorage, hasStoredSession, () => false);
}

/**
 * The real session when the backend is mounted, else the stored-token hint (never loading). The
 * hint can be stale (an expired session); pages behind the backend check again.
 */
export function useSession(): SessionState {
  const session = useContext(SessionContext);
  const stored = useStoredSession();
  return session ?? { isLoading: false, isAuthenticated: stored };
}
