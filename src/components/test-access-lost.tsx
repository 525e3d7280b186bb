// The screen of a team test's page (results, monitor) when the caller is not, or no longer, in
// the test's team: the server refuses every query of the test with TEAM_MESSAGES.testAccessLost,
// so a removed member's open page lands here at once. No Try Again: access will not come back.
import { Link } from "@tanstack/react-router";

import { ErrorState } from "@/components/error-state";
import { Button } from "@/components/ui/button";
import { appErrorData, errorMessage } from "@/lib/errors";

import { TEAM_MESSAGES } from "../../convex/lib/teams";

export const TEST_ACCESS_LOST_TITLE = "You no longer have access to this test";

/** True when a query of a team test failed because the caller is not (or no longer) in its team. */
export function isTestAccessLost(error: unknown): boolean {
  return appErrorData(error)?.message === TEAM_MESSAGES.testAccessLost;
}

export function TestAccessLost() {
  return <TestErrorScreen title={TEST_ACCESS_LOST_TITLE} message={TEAM_MESSAGES.testAccessLost} />;
}

/**
 * A test page's query error (results, review): the access-lost screen when the caller left the
 * test's team, else the error with Try Again; both with a way back to History.
 */
export function TestLoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  if (isTestAccessLost(error)) return <TestAccessLost />;
  return <TestErrorScreen title={title} message={errorMessage(error)} onRetry={onRetry} />;
}

function TestErrorScreen({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  return (
    <div className="space-y-4">
      <ErrorState title={title} message={message} onRetry={onRetry} />
      <div className="flex justify-center">
        <Button asChild variant="link">
          <Link to="/dashboard/history">Back to History</Link>
        </Button>
      </div>
    </div>
  );
}
