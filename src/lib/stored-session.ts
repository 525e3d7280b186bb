// The stored-token hint without React, for the landing page's script (src/landing-main.ts),
// which must not load React; lib/session.ts re-exports it for the app.

import { runtimeConfig } from "@/lib/runtime-config";

/** The Convex deployment address, as the client is created with: the served page's, else the built-in one. */
export function convexUrl(): string | undefined {
  const served = runtimeConfig().convexUrl;
  return (typeof served === "string" && served.trim()) || import.meta.env.VITE_CONVEX_URL?.trim() || undefined;
}

/**
 * Where @convex-dev/auth/react keeps the access token: `__convexAuthJWT_` plus the storage
 * namespace, which defaults to the client's address with everything but letters and digits removed.
 */
export function authTokenStorageKey(address: string): string {
  return `__convexAuthJWT_${address.replace(/[^a-zA-Z0-9]/g, "")}`;
}

/** True when Convex Auth has stored a token, i.e. the visitor was signed in when last seen. */
export function hasStoredSession(): boolean {
  const address = convexUrl();
  if (address === undefined) return false;
  try {
    return window.localStorage.getItem(authTokenStorageKey(address)) !== null;
  } catch {
    // Storage can be blocked (privacy settings); then nobody is remembered.
    return false;
  }
}
