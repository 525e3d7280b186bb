// A simulated jury for tests: generators of known true quality, judges with planted biases.
import { modelFamily } from "./judgeScores";
import type { JuryRanking, JuryRating, JuryResponse, JuryStatsInput } from "./types";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus";
import { seededRandom, seedFromText, type SeededRandom } from "./random";

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

/** A judge of simulateRun: Gaussian noise of its own, and a bonus for its own family's answers. */
export interface RunJudge {
  readonly id: string;
  /** Standard deviation of its perceived quality around the answer's (0–1 scale). */
  readonly noise: number;
  readonly self?: number;
}

/**
 * A random stream for one of many similar seeds (one per pair and run). seededRandom seeds
 * xoroshiro128+ from a 32-bit FNV hash, a barely mixed state: across seeds "answers:x:0",
 * "answers:x:1", … its first draw takes only four values (0.15, 0.40, 0.65, 0.90), and the means
 * over 200 pairs of each pair's first normal draw had an SD 1.13× the independent one's (0.94–0.97×
 * with the first eight draws discarded): the simulated pairs were dependent, which inflated A/A false
 * differences at 50–200 pairs. Here each of the four 32-bit words of the state is the FNV hash of
 * a salted seed through MurmurHash3's finaliser (full avalanche).
 */
export function streamRandom(seed: string): SeededRandom {
  const rng = xoroshiro128plusFromState([0, 1, 2, 3].map((salt) => murmurFinaliser(seedFromText(`${salt}|${seed}`))));
  return {
    index: (size) => uniformInt(rng, 0, size - 1),
    unit: () => uniformFloat64(rng),
  };
}

/** MurmurHash3's 32-bit finaliser: every input bit flips each output bit with probability ½. */
function murmurFinaliser(hash: number): number {
  let h = hash | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** A standard normal draw (Box–Muller). */
export function gaussian(random: SeededRandom): number {
  const u = 1 - random.unit();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.unit());
}

/**
 * One run of a test whose noise comes from separate seeded sources, so two runs can share some
 * and redraw the rest as a rerun does: the pairs' difficulty and each model's fit to a pair
 * (`pairSeed`: a rerun of the same configuration has the same personas and topics), the answers
 * (`answerSeed`: fresh answers, or the very same ones in a re-judging) and the judges' calls
 * (`judgeSeed`). Quality is on a 0–1 scale; a rating judge gives round(1 + 9 × perceived).
 */
export function simulateRun(options: {
  qualities: Record<string, number>;
  judges: readonly RunJudge[];
  pairs: number;
  answers?: number;
  scale?: "ranking" | "rating";
  /** SD of a pair's difficulty, shared by every model there. */
  pairSpread?: number;
  /** SD of each model's fit to a pair. */
  fitSpread?: number;
  /** SD of one answer around its model's quality in the pair. */
  answerSpread?: number;
  /** Both orders: every ranking call is made twice, the answers shown in reverse the second time. */
  bothOrders?: boolean;
  pairSeed: string;
  answerSeed: string;
  judgeSeed: string;
}): JuryStatsInput {
  const models = Object.keys(options.qualities);
  const answersPerModel = options.answers ?? 1;
  const responses: JuryResponse[] = [];
  const rankings: JuryRanking[] = [];
  const ratings: JuryRating[] = [];
  const judgeRandom = streamRandom(`judges:${options.judgeSeed}`);
  for (let pair = 0; pair < options.pairs; pair++) {
    const pairRandom = streamRandom(`pair:${options.pairSeed}:${pair}`);
    const answerRandom = streamRandom(`answers:${options.answerSeed}:${pair}`);
    const difficulty = (options.pairSpread ?? 0) * gaussian(pairRandom);
    const unit: { response: JuryResponse; value: number }[] = [];
    for (const modelId of models) {
      const fit = (options.fitSpread ?? 0) * gaussian(pairRandom);
      for (let a = 0; a < answersPerModel; a++) {
        const value =
          options.qualities[modelId]! + difficulty + fit + (options.answerSpread ?? 0) * gaussian(answerRandom);
        const response: JuryResponse = {
          id: `${modelId}|${pair}|${a}`,
          modelId,
          personaId: "p0",
          topicId: `t${pair}`,
          length: 800,
        };
        unit.push({ response, value });
      }
    }
    responses.push(...unit.map((entry) => entry.response));
    for (const judge of options.judges) {
      const perceived = (entry: { response: JuryResponse; value: number }) =>
        entry.value +
        judge.noise * gaussian(judgeRandom) +
        (modelFamily(entry.response.modelId) === modelFamily(judge.id) ? (judge.self ?? 0) : 0);
      if (options.scale === "rating") {
        for (const entry of unit) {
          const score = Math.min(10, Math.max(1, Math.round(1 + 9 * perceived(entry))));
          ratings.push({ judgeModelId: judge.id, responseId: entry.response.id, scores: { overall: score } });
        }
        continue;
      }
      const shown = [...unit];
      for (let i = shown.length - 1; i > 0; i--) {
        const j = judgeRandom.index(i + 1);
        [shown[i], shown[j]] = [shown[j]!, shown[i]!];
      }
      for (const order of options.bothOrders ? [shown, [...shown].reverse()] : [shown]) {
        rankings.push({
          judgeModelId: judge.id,
          shown: order.map((entry) => entry.response.id),
          ranking: order
            .map((entry) => ({ id: entry.response.id, score: perceived(entry) }))
            .sort((x, y) => y.score - x.score)
            .map((entry) => entry.id),
          order: order === shown ? "forward" : "reverse",
        });
      }
    }
  }
  return {
    seed: `${options.pairSeed}|${options.answerSeed}|${options.judgeSeed}`,
    scale: options.scale ?? "ranking",
    judges: options.judges.map((judge) => judge.id),
    models: models.map((id) => ({ id, name: id.split("/")[1] ?? id })),
    responses,
    rankings,
    ratings,
  };
}
