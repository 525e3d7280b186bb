// The shared page's Jury advice: the owner's card in words, without its buttons (they act on the
// owner's test) and without any judge's cost (sharedExtras.juryAdvice leaves it out).
import { useQuery } from "convex/react";

import { JuryAdviceView } from "@/components/results/jury-advice-view";
import { api } from "../../../convex/_generated/api";

/** Shown once the shared test has ended (its advice is computed from its final figures). */
export function SharedJuryAdvice({ shareId }: { shareId: string }) {
  return <JuryAdviceView advice={useQuery(api.sharedExtras.juryAdvice, { shareId })} />;
}
