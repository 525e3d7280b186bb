import { useAuthActions } from "@convex-dev/auth/react";
import { useNavigate } from "@tanstack/react-router";
import { useCallback } from "react";
import { toast } from "@/lib/toast";

import { errorMessage } from "@/lib/errors";

/** Ends the session and lands on the landing page. */
export function useSignOut(): () => Promise<void> {
  const { signOut } = useAuthActions();
  const navigate = useNavigate();
  return useCallback(async () => {
    // Leave the protected page first, or its guard would send us to /login instead of /.
    await navigate({ to: "/", replace: true });
    try {
      await signOut();
    } catch (error) {
      toast.error(`Sign out failed: ${errorMessage(error)}`);
    }
  }, [navigate, signOut]);
}
