// The compare page's answers side by side: one persona × topic pair's answers in both tests, the
// pair picked from those either test has (compare.answers); a repeated test's answers name their repeat.
import { useQuery } from "convex/react";
import { useState } from "react";

import { Markdown } from "@/components/markdown";
import { Spinner } from "@/components/spinner";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import { distinctFailureReasons } from "../../../convex/lib/checkReasons";
import { formatScore } from "../../../convex/lib/format";
import type { Comparison } from "./compare-page";
import { Section } from "./compare-section";
import { NO_ANSWERS, NOT_IN_TEST } from "./compare-texts";

type Pair = Comparison["pairs"][number];

function pairLabel(pair: Pair): string {
  return `${pair.persona} × ${pair.topic}`;
}

export function AnswersSection({ a, b, pairs }: { a: Id<"tests">; b: Id<"tests">; pairs: Comparison["pairs"] }) {
  const [selected, setSelected] = useState(0);
  const pair = pairs[Math.min(selected, pairs.length - 1)];
  return (
    <Section title="Answers side by side">
      {pair === undefined ? (
        <p className="text-sm text-muted-foreground">Neither test has a persona × topic pair.</p>
      ) : (
        <>
          <label className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">Persona × topic</span>
            <select
              className="max-w-full min-w-0 rounded-md border bg-background px-2 py-1"
              value={Math.min(selected, pairs.length - 1)}
              onChange={(event) => setSelected(Number(event.target.value))}
            >
              {pairs.map((item, index) => (
                <option key={pairLabel(item)} value={index}>
                  {pairLabel(item)}
                </option>
              ))}
            </select>
          </label>
          <PairAnswers a={a} b={b} pair={pair} />
        </>
      )}
    </Section>
  );
}

function PairAnswers({ a, b, pair }: { a: Id<"tests">; b: Id<"tests">; pair: Pair }) {
  const answers = useQuery(api.compare.answers, {
    a,
    b,
    ...(pair.a ? { pairA: pair.a } : {}),
    ...(pair.b ? { pairB: pair.b } : {}),
  });
  if (answers === undefined) return <Spinner label="Loading answers" />;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {(["a", "b"] as const).map((side) => (
        <div
          key={side}
          className="min-w-0 space-y-3"
          role="region"
          aria-label={`Answers in test ${side.toUpperCase()}`}
        >
          <h3 className="font-semibold">Test {side.toUpperCase()}</h3>
          {pair[side] === null ? (
            <p className="text-sm text-muted-foreground">{NOT_IN_TEST}</p>
          ) : answers[side].length === 0 ? (
            <p className="text-sm text-muted-foreground">{NO_ANSWERS}</p>
          ) : (
            answers[side].map((answer) => (
              <Card key={answer._id} className="gap-2 py-4">
                <CardHeader className="px-4">
                  <CardTitle className="flex flex-wrap items-center justify-between gap-2 text-sm">
                    <span>
                      {answer.modelName}
                      {answer.repeat !== undefined && (
                        <span className="font-normal text-muted-foreground"> · Repeat {answer.repeat + 1}</span>
                      )}
                    </span>
                    <span className="font-normal text-muted-foreground tabular-nums">
                      {answer.averageScore === null ? "Not scored yet" : `Score ${formatScore(answer.averageScore)}`}
                    </span>
                  </CardTitle>
                </CardHeader>
                <CardContent className="space-y-2 px-4 text-sm">
                  <Markdown>{answer.content}</Markdown>
                  {answer.checkFailures && answer.checkFailures.length > 0 && (
                    <ul className="text-xs text-destructive">
                      {distinctFailureReasons(answer.checkFailures).map((reason) => (
                        <li key={reason}>Failed a check: {reason}</li>
                      ))}
                    </ul>
                  )}
                </CardContent>
              </Card>
            ))
          )}
        </div>
      ))}
    </div>
  );
}
