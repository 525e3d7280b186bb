// The pairs "stop when settled" reads (lib/settle.ts), from the jury statistics' input: the test's
// persona × topic pairs in their seeded order, each counted once fully judged. Pure.
import { unitScoresOf, verdictsOfCalls } from "./compare";
import {
  judgedPrefix,
  pairOrder,
  settleStatus,
  type SettlePair,
  type SettleQuestion,
  type SettleStatus,
} from "./settle";
import { repeatsOf } from "./repeats";
import { modelFamily } from "./stats/judgeScores";
import type { JuryStatsInput } from "./stats/types";

/** What of a test's configuration the check needs (validators.ts testConfiguration). */
export interface SettleConfiguration {
  readonly personas: readonly { readonly id: string }[];
  readonly topics: readonly { readonly id: string }[];
  readonly generatorModels: readonly { readonly id: string }[];
  readonly evaluatorModels: readonly { readonly id: string }[];
  readonly responsesPerTopic: number;
  readonly scoringParameters: {
    readonly scale: "ranking" | "rating";
    readonly bothOrders?: boolean;
    readonly skipOwnFamily?: boolean;
  };
  readonly stopWhenSettled?: SettleQuestion;
  /** Runs of each cell (lib/repeats.ts): a pair is judged once every repeat's answers are. */
  readonly repeats?: number;
}

const pairKey = (personaId: string, topicId: string) => `${personaId}\u0000${topicId}`;

/** The test's pairs in the order its generation calls are created (core/pipeline/calls.ts). */
export function orderedPairs(
  config: Pick<SettleConfiguration, "personas" | "topics" | "stopWhenSettled">,
): { personaId: string; topicId: string }[] {
  const pairs = config.personas.flatMap((persona) =>
    config.topics.map((topic) => ({ personaId: persona.id, topicId: topic.id })),
  );
  const seed = config.stopWhenSettled?.seed;
  return config.stopWhenSettled === undefined || seed === undefined ? pairs : pairOrder(pairs, seed);
}

/**
 * Where the test's question stands: its pairs in the seeded order, the judged start of them (every
 * answer in, each with a verdict from every judge meant to judge it, twice when judged in both
 * orders), each model's mean score there and its share of answers passing every check (`failing`:
 * the answers that failed one). Null when the test does not stop when settled.
 */
export function settleStatusOf(
  config: SettleConfiguration,
  input: Pick<JuryStatsInput, "responses" | "rankings" | "ratings">,
  failing: ReadonlySet<string>,
): SettleStatus | null {
  const question = config.stopWhenSettled;
  if (question === undefined) return null;
  const verdicts = verdictsOfCalls(input);
  const verdictCount = new Map<string, number>();
  for (const verdict of verdicts) {
    const key = `${verdict.responseId}\u0000${verdict.judgeModelId}`;
    verdictCount.set(key, (verdictCount.get(key) ?? 0) + 1);
  }
  const { scale, bothOrders, skipOwnFamily } = config.scoringParameters;
  const perJudge = scale === "ranking" && bothOrders ? 2 : 1;
  const answersWanted = config.generatorModels.length * config.responsesPerTopic * repeatsOf(config.repeats);
  const byPair = new Map<string, JuryStatsInput["responses"][number][]>();
  for (const response of input.responses) {
    const key = pairKey(response.personaId, response.topicId);
    byPair.set(key, [...(byPair.get(key) ?? []), response]);
  }
  const judged = (pair: { personaId: string; topicId: string }) => {
    const answers = byPair.get(pairKey(pair.personaId, pair.topicId)) ?? [];
    if (answers.length < answersWanted) return false;
    return answers.every((answer) =>
      config.evaluatorModels.every(
        (judge) =>
          (skipOwnFamily === true && modelFamily(judge.id) === modelFamily(answer.modelId)) ||
          (verdictCount.get(`${answer.id}\u0000${judge.id}`) ?? 0) >= perJudge,
      ),
    );
  };
  const ordered = orderedPairs(config);
  const prefix = judgedPrefix(ordered, judged);
  const units = new Map(
    unitScoresOf(input.responses, verdicts).map((unit) => [pairKey(unit.personaId, unit.topicId), unit.means]),
  );
  const pairs: SettlePair[] = prefix.map(({ personaId, topicId }) => {
    const answers = byPair.get(pairKey(personaId, topicId)) ?? [];
    const passShares = new Map<string, number>();
    for (const model of config.generatorModels) {
      const own = answers.filter((answer) => answer.modelId === model.id);
      if (own.length > 0) passShares.set(model.id, own.filter((answer) => !failing.has(answer.id)).length / own.length);
    }
    return { means: units.get(pairKey(personaId, topicId)) ?? new Map(), passShares };
  });
  return settleStatus(
    question,
    config.generatorModels.map((model) => model.id),
    pairs,
    ordered.length,
  );
}
