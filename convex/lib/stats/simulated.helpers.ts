// A simulated jury for tests: generators of known true quality, judges with planted biases.
import type { JuryRanking, JuryRating, JuryResponse, JuryStatsInput } from "./index";
import { seededRandom } from "./random";

export interface Judge {
  id: string;
  noise?: number;
  /** Score bonus for the answer shown first. */
  position?: number;
  /** Score bonus for answers of its own provider family. */
  self?: number;
  /** Score bonus per 1,000 characters. */
  length?: number;
}

export const FAIR: Judge[] = [
  { id: "openai/judge" },
  { id: "anthropic/judge" },
  { id: "meta/judge" },
  { id: "qwen/judge" },
  { id: "google/judge" },
];

export function simulate(options: {
  qualities: Record<string, number>;
  judges: Judge[];
  topics: number;
  personas?: number;
  scale?: "ranking" | "rating";
  bothOrders?: boolean;
  seed?: string;
}): JuryStatsInput {
  const random = seededRandom(`simulation:${options.seed ?? "s"}`);
  const personas = options.personas ?? 1;
  const responses: JuryResponse[] = [];
  const latent = new Map<string, number>();
  const rankings: JuryRanking[] = [];
  const ratings: JuryRating[] = [];
  for (let p = 0; p < personas; p++) {
    for (let t = 0; t < options.topics; t++) {
      const unit: JuryResponse[] = [];
      for (const [modelId, quality] of Object.entries(options.qualities)) {
        const value = quality + (random.unit() - 0.5) * 0.3;
        const response = {
          id: `${modelId}|${p}|${t}`,
          modelId,
          personaId: `p${p}`,
          topicId: `t${t}`,
          length: Math.round(300 + 300 * value + random.unit() * 600),
          costUsd: 0.001,
        };
        latent.set(response.id, value);
        unit.push(response);
      }
      responses.push(...unit);
      for (const judge of options.judges) {
        const perceived = (response: JuryResponse, shownIndex: number) =>
          latent.get(response.id)! +
          (random.unit() - 0.5) * 2 * (judge.noise ?? 0.15) +
          (shownIndex === 0 ? (judge.position ?? 0) : 0) +
          (response.modelId.split("/")[0] === judge.id.split("/")[0] ? (judge.self ?? 0) : 0) +
          ((judge.length ?? 0) * response.length) / 1000;
        if (options.scale === "rating") {
          for (const response of unit) {
            const score = Math.min(10, Math.max(1, Math.round(1 + 9 * perceived(response, 1))));
            ratings.push({
              judgeModelId: judge.id,
              responseId: response.id,
              scores: { accuracy: score, clarity: score },
              costUsd: 0.0005,
            });
          }
          continue;
        }
        const shown = [...unit];
        for (let i = shown.length - 1; i > 0; i--) {
          const j = random.index(i + 1);
          [shown[i], shown[j]] = [shown[j]!, shown[i]!];
        }
        const orders = options.bothOrders ? [shown, [...shown].reverse()] : [shown];
        orders.forEach((order, index) => {
          const ranking = order
            .map((response, shownIndex) => ({ id: response.id, score: perceived(response, shownIndex) }))
            .sort((a, b) => b.score - a.score)
            .map((entry) => entry.id);
          rankings.push({
            judgeModelId: judge.id,
            shown: order.map((response) => response.id),
            ranking,
            order: index === 0 ? "forward" : "reverse",
            costUsd: 0.002,
          });
        });
      }
    }
  }
  return {
    seed: options.seed ?? "test-id",
    scale: options.scale ?? "ranking",
    judges: options.judges.map((judge) => judge.id),
    models: Object.keys(options.qualities).map((id) => ({ id, name: id.split("/")[1]! })),
    responses,
    rankings,
    ratings,
  };
}

export const TEN_MODELS = Object.fromEntries(
  Array.from({ length: 10 }, (_, index) => [`vendor${index}/model-${index}`, 0.2 + index * 0.07]),
);
