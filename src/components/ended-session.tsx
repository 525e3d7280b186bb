import { useAuthActions } from "@convex-dev/auth/react";
import { useConvexAuth, useQuery } from "convex/react";
import { useEffect } from "react";

import { api } from "../../convex/_generated/api";

/**
 * Signs this browser out as soon as the server no longer knows its session: another device
 * changed the password, or the session was ended elsewhere. The token itself would stay valid
 * for up to an hour; the backend already refuses it (convex/functions.ts), and this moves the
 * page to the signed-out state instead of showing refusals.
 */
export function EndedSessionWatcher() {
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const { signOut } = useAuthActions();
  useEffect(() => {
    if (isAuthenticated && viewer === null) void signOut();
  }, [isAuthenticated, viewer, signOut]);
  return null;
}
