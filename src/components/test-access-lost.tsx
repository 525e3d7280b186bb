// The screen of a team test's page (results, monitor) when the caller is not, or no longer, in
// the test's team: the server refuses every query of the test with TEAM_MESSAGES.testAccessLost,
// so a removed member's open page lands here at once. No Try Again: access will not come back.
import { Link } from "@tanstack/react-router";

import { ErrorState } from "@/components/error-state";
import { Button } from "@/components/ui/button";
import { appErrorData } from "@/lib/errors";

import { TEAM_MESSAGES } from "../../convex/lib/teams";

export const TEST_ACCESS_LOST_TITLE = "You no longer have access to this test";

/** True when a query of a team test failed because the caller is not (or no longer) in its team. */
export function isTestAccessLost(error: unknown): boolean {
  return appErrorData(error)?.message === TEAM_MESSAGES.testAccessLost;
}

export function TestAccessLost() {
  return (
    <div className="space-y-4">
      <ErrorState title={TEST_ACCESS_LOST_TITLE} message={TEAM_MESSAGES.testAccessLost} />
      <div className="flex justify-center">
        <Button asChild variant="link">
          <Link to="/dashboard/history">Back to History</Link>
        </Button>
      </div>
    </div>
  );
}
