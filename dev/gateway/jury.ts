/**
 * A whole test's jury, simulated in-process with the gateway's own reply functions: generators
 * answer every persona × topic, judges rank (or rate) the answers shown in a shuffled order under
 * neutral labels, as the app does. The output is the input of computeJuryStats, so tests and
 * bench/jury-calibration.ts can check the statistics against the catalog's hidden truth
 * (generator quality, planted judges).
 */
import { labelFor } from "../../convex/lib/prompts";
import type { JuryRanking, JuryRating, JuryResponse, JuryStatsInput } from "../../convex/lib/stats/types";
import { findCatalogModel, modelFamily, type CatalogModel } from "./catalog";
import { createRandom, hashStrings } from "./random";
import { generateAnswers } from "./answerWriting";
import { rankingContent, ratingContent } from "./judgeReplies";
import type { Criterion, PromptParts } from "./replies";
import { judgeProfileFor, type GatewaySettings } from "./settings";

export interface SimulatedTestOptions {
  readonly generators: readonly string[];
  readonly judges: readonly string[];
  readonly topics: number;
  readonly personas?: number;
  readonly responsesPerTopic?: number;
  readonly scale?: "ranking" | "rating";
  /** "Judge in both orders": every ranking asked again with the answers reversed. */
  readonly bothOrders?: boolean;
  /** "Judges skip answers from their own family". */
  readonly skipOwnFamily?: boolean;
  /** Seeds the gateway's replies and the shown orders. */
  readonly seed: number;
  /** Judge imperfections, as the gateway's settings (default: the catalog's planted judges). */
  readonly judgeSettings?: Pick<GatewaySettings, "plantedJudges" | "judgeProfiles">;
}

const SUBJECTS = [
  "a reusable coffee cup for busy commuters",
  "a solar phone charger for hikers",
  "noise-cancelling headphones for open offices",
  "a standing desk for small apartments",
  "a budgeting app for students",
  "an electric bike for city deliveries",
  "a meal-planning service for families",
  "a password manager for small teams",
  "a language-learning course for travellers",
  "a smart thermostat for old houses",
];
const ANGLES = [
  "a product description",
  "a launch email",
  "a short ad",
  "a landing-page headline and pitch",
  "a customer FAQ answer",
];
const PERSONAS = [
  "You are a busy parent of three who values practical, time-saving advice.",
  "You are a retired engineer who wants precise facts and no hype.",
  "You are a sarcastic teenager who hates marketing speak.",
  "You are a small-business owner watching every cent.",
];

const CRITERIA: readonly Criterion[] = ["accuracy", "clarity"];

function need(modelId: string): CatalogModel {
  const model = findCatalogModel(modelId);
  if (!model) throw new Error(`${modelId} is not in the dev gateway's catalog`);
  return model;
}

function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function costUsd(model: CatalogModel, promptText: string, completionText: string): number {
  return (
    (tokens(promptText) * model.promptPerMillion + tokens(completionText) * model.completionPerMillion) / 1_000_000
  );
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = createRandom(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

export function topicPrompt(topic: number): string {
  const subject = SUBJECTS[topic % SUBJECTS.length] ?? SUBJECTS[0];
  const angle = ANGLES[Math.floor(topic / SUBJECTS.length) % ANGLES.length] ?? ANGLES[0];
  const round = Math.floor(topic / (SUBJECTS.length * ANGLES.length));
  return `Everyday products${round > 0 ? `, series ${round + 1}` : ""}.\n\nWrite ${angle} for ${subject}.`;
}

export function simulateJuryTest(options: SimulatedTestOptions): JuryStatsInput {
  const settings = options.judgeSettings ?? { plantedJudges: true, judgeProfiles: {} };
  const perTopic = options.responsesPerTopic ?? 1;
  const responses: JuryResponse[] = [];
  const rankings: JuryRanking[] = [];
  const ratings: JuryRating[] = [];
  for (let p = 0; p < (options.personas ?? 1); p++) {
    for (let t = 0; t < options.topics; t++) {
      const parts: PromptParts = { system: PERSONAS[p % PERSONAS.length] ?? "", user: topicPrompt(t) };
      const unit: (JuryResponse & { text: string })[] = [];
      for (const modelId of options.generators) {
        const model = need(modelId);
        const answers = generateAnswers(model, parts, perTopic, options.seed);
        const share = costUsd(model, `${parts.system}\n${parts.user}`, JSON.stringify(answers)) / answers.length;
        answers.forEach((text, k) => {
          const response = {
            id: `${modelId}#${p}#${t}#${k}`,
            modelId,
            personaId: `persona-${p}`,
            topicId: `topic-${t}`,
            length: text.length,
            costUsd: share,
            text,
          };
          unit.push(response);
          responses.push({
            id: response.id,
            modelId,
            personaId: response.personaId,
            topicId: response.topicId,
            length: text.length,
            costUsd: share,
          });
        });
      }
      for (const judgeId of options.judges) {
        const judge = need(judgeId);
        const profile = judgeProfileFor(judgeId, settings);
        const visible = options.skipOwnFamily
          ? unit.filter((response) => modelFamily(response.modelId) !== modelFamily(judgeId))
          : unit;
        if (options.scale === "rating") {
          for (const response of visible) {
            const reply = ratingContent(judge, CRITERIA, response.text, options.seed, profile);
            const { scores } = JSON.parse(reply) as { scores: Record<string, number> };
            ratings.push({
              judgeModelId: judgeId,
              responseId: response.id,
              scores,
              costUsd: costUsd(judge, response.text, reply),
            });
          }
          continue;
        }
        if (visible.length < 2) continue;
        const shown = shuffled(visible, hashStrings("shown", judgeId, String(options.seed), String(p), String(t)));
        const orders = options.bothOrders ? [shown, [...shown].reverse()] : [shown];
        orders.forEach((order, index) => {
          const labelled = order.map((response, position) => ({ label: labelFor(position), text: response.text }));
          const reply = rankingContent(judge, labelled, options.seed, profile);
          const idOf = new Map(order.map((response, position) => [labelFor(position), response.id]));
          const { ranking } = JSON.parse(reply) as { ranking: string[] };
          rankings.push({
            judgeModelId: judgeId,
            shown: order.map((response) => response.id),
            ranking: ranking.map((label) => idOf.get(label) ?? ""),
            order: index === 0 ? "forward" : "reverse",
            costUsd: costUsd(judge, labelled.map((entry) => entry.text).join("\n"), reply),
          });
        });
      }
    }
  }
  return {
    seed: `simulated-${options.seed}`,
    scale: options.scale ?? "ranking",
    models: options.generators.map((id) => ({ id, name: need(id).name })),
    judges: [...options.judges],
    responses,
    rankings,
    ratings,
  };
}
