import { useQuery } from "convex/react";
import { BanknoteIcon } from "lucide-react";

import { Alert, AlertDescription } from "@/components/ui/alert";

import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { endedMoneyText } from "../../convex/lib/moneyWords";

/**
 * What an ended test's money came to, said plainly: a test stopped early says what was refunded
 * for the calls it did not make and what stays charged; a completed one's price covers its calls
 * (a failed test's refund is said by its own notice).
 */
export function EndedMoneyNotice({
  test,
}: {
  test: { _id: Id<"tests">; status: string; chargedCents: number; totalCostUsd: number };
}) {
  const paid = test.chargedCents > 0 && (test.status === "cancelled" || test.status === "completed");
  const refund = useQuery(api.refunds.ofTest, paid ? { testId: test._id } : "skip");
  if (paid && refund === undefined) return null; // the refund is still loading: say it once, whole
  const text = endedMoneyText(test.status, test.chargedCents, test.totalCostUsd, refund);
  if (text === null) return null;
  return (
    <Alert data-testid="money-notice">
      <BanknoteIcon />
      <AlertDescription>{text}</AlertDescription>
    </Alert>
  );
}
