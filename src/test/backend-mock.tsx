// Stands in for components/backend-provider.tsx in component tests (mocked in setup.ts): no
// Convex client; the session comes from whatever the test file mocks `convex/react` with.
import { useEffect, type ReactNode } from "react";

import { SessionBridge } from "@/components/session-bridge";

/** How many times the backend was mounted since the last reset (tests of when it loads). */
export const backendMounts = { count: 0 };

export default function BackendProvider({ children }: { children: ReactNode }) {
  useEffect(() => {
    backendMounts.count += 1;
  }, []);
  return <SessionBridge>{children}</SessionBridge>;
}
