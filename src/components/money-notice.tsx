import { BanknoteIcon } from "lucide-react";

import { Alert, AlertDescription } from "@/components/ui/alert";

import { endedMoneyText } from "../../convex/lib/moneyWords";

/**
 * What an ended test's money came to, said plainly: a stopped test's price stays charged, a
 * completed one's price covers its calls (a failed test's refund is said by its own notice).
 */
export function EndedMoneyNotice({ test }: { test: { status: string; chargedCents: number; totalCostUsd: number } }) {
  const text = endedMoneyText(test.status, test.chargedCents, test.totalCostUsd);
  if (text === null) return null;
  return (
    <Alert data-testid="money-notice">
      <BanknoteIcon />
      <AlertDescription>{text}</AlertDescription>
    </Alert>
  );
}
