// The team's spend by member on the billing page: shown to the owners of the chosen
// team only; the payments above it stay the caller's own.
import { useQuery } from "convex/react";

import { EmptyState } from "@/components/empty-state";
import { Money } from "@/components/money";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { useSpace } from "@/lib/space-context";

/** Nothing unless the chosen space is a team the caller owns. */
export function TeamSpendSection() {
  const { team } = useSpace();
  if (!team || team.role !== "owner") return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Team Spend: {team.name}</h2>
        </CardTitle>
        <CardDescription>What the team&apos;s tests cost, by the member who started and paid for them.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryErrorBoundary fallback={(error) => <p className="text-sm text-destructive">{errorMessage(error)}</p>}>
          <TeamSpendTable teamId={team.teamId} />
        </QueryErrorBoundary>
      </CardContent>
    </Card>
  );
}

function TeamSpendTable({ teamId }: { teamId: Id<"teams"> }) {
  const spend = useQuery(api.billing.teamSpend, { teamId });
  if (spend === undefined) return <Skeleton className="h-24" />;
  if (spend.members.length === 0) {
    return <EmptyState title="No team spend yet" description="Payments for the team's tests will appear here." />;
  }
  return (
    <Table aria-label="Team spend by member">
      <TableHeader>
        <TableRow>
          <TableHead>Member</TableHead>
          <TableHead>Tests</TableHead>
          <TableHead className="text-right">Spent</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {spend.members.map((member) => (
          <TableRow key={member.userId}>
            <TableCell>{member.name}</TableCell>
            <TableCell>{member.tests}</TableCell>
            <TableCell className="text-right">
              <Money cents={member.spentCents} />
            </TableCell>
          </TableRow>
        ))}
        <TableRow>
          <TableCell className="font-medium">Total</TableCell>
          <TableCell />
          <TableCell className="text-right font-medium">
            <Money cents={spend.totalCents} />
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}
