// History's way to compare two tests (issue 22 step 2): a box on each row picks it; with two
// picked, Compare opens /compare with the older as A and the newer as B.
import { Link } from "@tanstack/react-router";
import { GitCompareIcon } from "lucide-react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";

export interface Pickable {
  _id: string;
  _creationTime: number;
  name: string;
}

/** The rows picked, at most two, in the order picked. */
export function useCompareSelection() {
  const [picked, setPicked] = useState<Pickable[]>([]);
  return {
    picked,
    isPicked: (row: Pickable) => picked.some((item) => item._id === row._id),
    toggle: (row: Pickable) =>
      setPicked((current) =>
        current.some((item) => item._id === row._id)
          ? current.filter((item) => item._id !== row._id)
          : current.length < 2
            ? [...current, row]
            : current,
      ),
    clear: () => setPicked([]),
  };
}

export type CompareSelection = ReturnType<typeof useCompareSelection>;

export function CompareCheckbox({ row, selection }: { row: Pickable; selection: CompareSelection }) {
  const checked = selection.isPicked(row);
  return (
    <Checkbox
      checked={checked}
      disabled={!checked && selection.picked.length >= 2}
      onCheckedChange={() => selection.toggle(row)}
      aria-label={`Pick ${row.name} to compare`}
      className="mt-1"
    />
  );
}

/** "Pick two tests to compare", then Compare once two are picked. */
export function CompareBar({ selection }: { selection: CompareSelection }) {
  const { picked } = selection;
  const [a, b] = [...picked].sort((x, y) => x._creationTime - y._creationTime);
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" role="group" aria-label="Compare tests">
      <span className="text-muted-foreground" aria-live="polite">
        {picked.length === 0
          ? "Tick two tests to compare them."
          : picked.length === 1
            ? `${picked[0]!.name} picked. Tick one more.`
            : `${a!.name} and ${b!.name} picked.`}
      </span>
      {a && b && (
        <Button asChild size="sm">
          <Link to="/compare" search={{ a: a._id, b: b._id }}>
            <GitCompareIcon /> Compare
          </Link>
        </Button>
      )}
      {picked.length > 0 && (
        <Button variant="ghost" size="sm" onClick={selection.clear}>
          Clear
        </Button>
      )}
    </div>
  );
}
