import { ConvexAuthProvider } from "@convex-dev/auth/react";
import type { ReactNode } from "react";

import { ConfigurationError } from "@/components/configuration-error";
import { SessionBridge } from "@/components/session-bridge";
import { getConvexClient } from "@/lib/convex-client";

// Loaded on demand by backend-boundary.tsx, so the Convex client and Convex Auth stay off the
// public pages' critical path. Tests replace this module (src/test/setup.ts).

/** The Convex client and Convex Auth around the pages that talk to the backend. */
export default function BackendProvider({ children }: { children: ReactNode }) {
  const convex = getConvexClient();
  if ("error" in convex) return <ConfigurationError detail={convex.error} />;
  return (
    <ConvexAuthProvider client={convex.client}>
      <SessionBridge>{children}</SessionBridge>
    </ConvexAuthProvider>
  );
}
