// The results page's ways into the compare page: "Compare with the original" on a rerun, and
// "Compare with…", which lists the space's other tests (History's rows) to pick one.
import { Link } from "@tanstack/react-router";
import { useQuery } from "convex/react";
import { GitCompareIcon } from "lucide-react";
import { useState } from "react";

import { Spinner } from "@/components/spinner";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { formatDate } from "@/lib/dates";
import { useSpace } from "@/lib/space-context";
import { api } from "../../../convex/_generated/api";

export const COMPARE_WITH_ORIGINAL = "Compare with the original";
export const COMPARE_WITH = "Compare with…";

interface ComparedTest {
  _id: string;
  _creationTime: number;
  name: string;
  rerunOf?: string;
}

/** The two ids in the address: the older test is A. */
export function compareSearch(
  one: { _id: string; _creationTime: number },
  other: { _id: string; _creationTime: number },
) {
  const [a, b] = one._creationTime <= other._creationTime ? [one, other] : [other, one];
  return { a: a._id, b: b._id };
}

export function CompareActions({ test }: { test: ComparedTest }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {test.rerunOf !== undefined && (
        <Button asChild variant="outline">
          <Link to="/compare" search={{ a: test.rerunOf, b: test._id }}>
            <GitCompareIcon /> {COMPARE_WITH_ORIGINAL}
          </Link>
        </Button>
      )}
      <Button variant="outline" onClick={() => setOpen(true)}>
        <GitCompareIcon /> {COMPARE_WITH}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-h-[80vh] overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Compare with another test</DialogTitle>
            <DialogDescription>Pick the test to compare {test.name} with.</DialogDescription>
          </DialogHeader>
          {open && <OtherTests test={test} />}
        </DialogContent>
      </Dialog>
    </>
  );
}

function OtherTests({ test }: { test: ComparedTest }) {
  const { teamId } = useSpace();
  const data = useQuery(api.history.list, teamId === null ? {} : { teamId });
  if (data === undefined) return <Spinner label="Loading tests" />;
  const others = data.tests.filter((row) => row._id !== test._id && !row.awaitingPayment);
  if (others.length === 0) return <p className="text-sm text-muted-foreground">No other test to compare with yet.</p>;
  return (
    <ul className="space-y-2" aria-label="Tests to compare with">
      {others.map((row) => (
        <li key={row._id}>
          <Link
            to="/compare"
            search={compareSearch(test, row)}
            className="flex items-center justify-between gap-3 rounded-md border px-3 py-2 text-sm hover:bg-muted"
          >
            <span className="min-w-0 truncate font-medium">{row.name}</span>
            <span className="flex shrink-0 items-center gap-2 text-muted-foreground">
              {formatDate(row._creationTime)}
              <StatusBadge status={row.status} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
