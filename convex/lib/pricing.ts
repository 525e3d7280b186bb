// Cost estimate, price and run limits of a test (spec part 1 §5, §9). The server recomputes the
// quote with these functions from the cached catalog; the setup page uses them for its preview.
import { checkProblems } from "./checkProblems";
import { configurationLimitProblems, TEST_LIMITS } from "./limits";
import { repeatProblems, repeatsOf } from "./repeats";
import { validatePersona, validateTopic } from "./templates";
import {
  EVALUATION_SCALES,
  modelIdOf,
  selectedCriteria,
  type CallCounts,
  type CatalogPrice,
  type CostEstimate,
  type EvaluationScale,
  type ModelRef,
  type PersonaInput,
  type PriceCatalog,
  type Problem,
  type Quote,
  type TestConfig,
  type TopicInput,
} from "./types";

export const MARKUP_MULTIPLIER = 4;
export const OVERHEAD = 1.1;
export const MIN_PRICE_CENTS = 200;
export const CHARS_PER_TOKEN = 3;
export const TOKENS_PER_RESPONSE = 500;
export const TOKENS_PER_EVALUATION = 250;
export const TOKENS_PER_RANKING = 400;
export const UNKNOWN_MODEL_COST_PER_TOKEN = 1e-6;

/** What the estimate needs; a full TestConfig fits. */
export interface EstimateInput {
  readonly generatorModels: readonly ModelRef[];
  readonly evaluatorModels: readonly ModelRef[];
  readonly personas: readonly Pick<PersonaInput, "systemPrompt">[];
  readonly topics: readonly Pick<TopicInput, "prompt">[];
  readonly userPrompt: string;
  readonly responsesPerTopic: number;
  /** Runs of each cell (lib/repeats.ts): every call, generation and judging, is made this many times. */
  readonly repeats?: number;
  readonly scoringParameters: {
    readonly scale: EvaluationScale;
    readonly bothOrders?: boolean;
    readonly skipOwnFamily?: boolean;
  };
}

/** The provider part of a model id ("openai/gpt-4o" → "openai"): a model's family. */
function familyOf(modelId: string): string {
  return modelId.split("/")[0] ?? modelId;
}

/**
 * What one evaluator judges in each persona × topic pair, as the pipeline creates its calls
 * (core/pipeline/calls judgeCallsOfPair): the answers it sees (with "Judges skip answers from their
 * own family", none of its own provider's generators) and its calls — ranking, one over those
 * answers (none when the guard leaves fewer than two), two with "Judge in both orders";
 * rating, one per answer.
 */
export function judgeWorkPerPair(
  config: Pick<EstimateInput, "generatorModels" | "responsesPerTopic" | "scoringParameters">,
  evaluatorId: string,
): { answers: number; calls: number; evaluations: number } {
  const responsesPerTopic = responsesPerTopicOf(config.responsesPerTopic);
  const generatorIds = config.generatorModels.map(modelIdOf);
  const all = generatorIds.length * responsesPerTopic;
  const { scale, bothOrders, skipOwnFamily } = config.scoringParameters;
  const answers = skipOwnFamily
    ? generatorIds.filter((id) => familyOf(id) !== familyOf(evaluatorId)).length * responsesPerTopic
    : all;
  if (scale === "rating") return { answers, calls: answers, evaluations: answers };
  if (answers === 0 || (answers < 2 && answers < all)) return { answers, calls: 0, evaluations: 0 };
  const orders = bothOrders && answers > 1 ? 2 : 1;
  return { answers, calls: orders, evaluations: orders * answers };
}

/** Tokens of a text at CHARS_PER_TOKEN characters per token, rounded up. */
export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Responses per topic as the run uses it: a whole number, at least 1 (missing → 1). */
export function responsesPerTopicOf(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : 1;
}

export function priceOf(catalog: PriceCatalog, modelId: string): CatalogPrice {
  return Object.hasOwn(catalog, modelId)
    ? catalog[modelId]
    : { prompt: UNKNOWN_MODEL_COST_PER_TOKEN, completion: UNKNOWN_MODEL_COST_PER_TOKEN };
}

/**
 * Gateway cost of a test in dollars, before markup.
 *
 * Per generation call (model × persona × topic):
 *   prompt tokens     = ceil(chars(persona system prompt + topic prompt + user prompt) / 3)
 *   completion tokens = 500 × responses per topic
 * Per evaluation call the judge reads the question (topic prompt + user prompt, at 3 chars per
 * token, rounded up) and the answers it judges (500 tokens each), and writes its verdict:
 *   rating  (one per answer per evaluator):          prompt = question + 500,         completion = 250
 *   ranking (one per persona × topic per evaluator): prompt = question + 500 × G × R, completion = 400
 * "Judge in both orders" doubles the ranking calls (each is made again with the answers
 * reversed); "Judges skip answers from their own family" leaves out a judge's own family's
 * answers (see judgeWorkPerPair). Each call costs prompt tokens × the model's prompt price + completion tokens × its completion
 * price. estimatedTokens is every prompt and completion token of every call; totalQueries is
 * models × personas × topics (the generation calls). With repeats (lib/repeats.ts) every call is
 * made once per repeat, so the cost, tokens and queries are the single run's × repeats.
 *
 * `parts` "judging" leaves the generation calls out (generationCost 0, no queries, only the judge
 * calls' tokens): a re-judging ("Judge again") reuses a finished test's answers and pays for its
 * judges alone, priced on the answers the configuration asks for.
 */
export function estimateCost(config: EstimateInput, catalog: PriceCatalog, parts: QuoteParts = "all"): CostEstimate {
  const generatorIds = config.generatorModels.map(modelIdOf);
  const evaluatorIds = config.evaluatorModels.map(modelIdOf);
  const responsesPerTopic = responsesPerTopicOf(config.responsesPerTopic);
  const answersPerPair = generatorIds.length * responsesPerTopic;
  const generationCompletionTokens = TOKENS_PER_RESPONSE * responsesPerTopic;
  const ranking = config.scoringParameters.scale === "ranking";

  let generationCost = 0;
  let evaluationCost = 0;
  let estimatedTokens = 0;
  const generating = parts === "all";
  for (const persona of config.personas) {
    for (const topic of config.topics) {
      const generationPromptTokens = textTokens(persona.systemPrompt + topic.prompt + config.userPrompt);
      for (const modelId of generating ? generatorIds : []) {
        const price = priceOf(catalog, modelId);
        generationCost += generationPromptTokens * price.prompt + generationCompletionTokens * price.completion;
        estimatedTokens += generationPromptTokens + generationCompletionTokens;
      }
      if (answersPerPair === 0) continue;
      const questionTokens = textTokens(topic.prompt + config.userPrompt);
      const judgeCompletionTokens = ranking ? TOKENS_PER_RANKING : TOKENS_PER_EVALUATION;
      for (const modelId of evaluatorIds) {
        const work = judgeWorkPerPair(config, modelId);
        const judgeCalls = work.calls;
        const judgePromptTokens = ranking
          ? questionTokens + TOKENS_PER_RESPONSE * work.answers
          : questionTokens + TOKENS_PER_RESPONSE;
        const price = priceOf(catalog, modelId);
        evaluationCost += judgeCalls * (judgePromptTokens * price.prompt + judgeCompletionTokens * price.completion);
        estimatedTokens += judgeCalls * (judgePromptTokens + judgeCompletionTokens);
      }
    }
  }
  const repeats = repeatsOf(config.repeats);
  return {
    generationCost: generationCost * repeats,
    evaluationCost: evaluationCost * repeats,
    totalCost: (generationCost + evaluationCost) * repeats,
    totalQueries: generating ? generatorIds.length * config.personas.length * config.topics.length * repeats : 0,
    estimatedTokens: estimatedTokens * repeats,
  };
}

/** What a quote covers: the whole run, or its judging alone (a re-judging over existing answers). */
export type QuoteParts = "all" | "judging";

/**
 * Dollars → cents after overhead and markup (× 1.1 × 4), rounded up to the cent, no minimum.
 * Rounded to a millionth of a dollar first so float noise cannot add a cent
 * (0.5 × 1.1 × 4 is 2.2000000000000006 in floating point, and must give 220, not 221).
 */
export function markedUpCents(rawCost: number): number {
  if (!Number.isFinite(rawCost) || rawCost < 0) throw new RangeError(`Invalid cost: ${rawCost}`);
  const dollars = rawCost * OVERHEAD * MARKUP_MULTIPLIER;
  return Math.ceil(Math.round(dollars * 1e6) / 1e4);
}

/**
 * What the user pays for a test of this raw cost, in integer cents: the marked-up cost with the
 * $2.00 minimum. A zero cost (nothing to run) is priced at 0, so an empty draft shows $0.00.
 */
export function priceCents(rawCost: number): number {
  const cents = markedUpCents(rawCost);
  return cents === 0 ? 0 : Math.max(MIN_PRICE_CENTS, cents);
}

export function quote(config: EstimateInput, catalog: PriceCatalog, parts: QuoteParts = "all"): Quote {
  const estimate = estimateCost(config, catalog, parts);
  return { estimate, priceCents: priceCents(estimate.totalCost) };
}

/**
 * What one model adds to the price of this configuration, in cents after markup (no minimum):
 * the difference between the configuration with and without it in the given role. A generator
 * adds its own generation calls and the judging of its answers; an evaluator adds its judging.
 * Works whether or not the model is already selected, so a selected model shows its share.
 */
export function modelPriceCents(
  config: EstimateInput,
  catalog: PriceCatalog,
  modelId: string,
  role: "generator" | "evaluator" = "generator",
): number {
  const key = role === "generator" ? "generatorModels" : "evaluatorModels";
  const others = config[key].filter((ref) => modelIdOf(ref) !== modelId);
  const without = estimateCost({ ...config, [key]: others }, catalog).totalCost;
  const withModel = estimateCost({ ...config, [key]: [...others, modelId] }, catalog).totalCost;
  return markedUpCents(Math.max(0, withModel - without));
}

/** Responses per topic a cost range spans when the count is not chosen yet (the default 2 in between). */
export const RANGE_RESPONSES_PER_TOPIC = { min: 1, max: 3 } as const;

export interface PriceRange {
  readonly minCents: number;
  readonly maxCents: number;
}

/**
 * What the configurations would be charged, lowest to highest, each priced as tests.create
 * prices it (quote(), with the $2.00 minimum) from the catalog's current prices.
 */
export function priceRangeOf(configs: readonly EstimateInput[], catalog: PriceCatalog): PriceRange | null {
  if (configs.length === 0) return null;
  const cents = configs.map((config) => quote(config, catalog).priceCents);
  return { minCents: Math.min(...cents), maxCents: Math.max(...cents) };
}

/** A configuration at the low and the high end of RANGE_RESPONSES_PER_TOPIC. */
export function responseCountVariants(config: EstimateInput): EstimateInput[] {
  return [
    { ...config, responsesPerTopic: RANGE_RESPONSES_PER_TOPIC.min },
    { ...config, responsesPerTopic: RANGE_RESPONSES_PER_TOPIC.max },
  ];
}

/**
 * The configuration under every judging setting the setup offers for it — ranking or rating,
 * "Judge in both orders" and "Judges skip answers from their own family" on or off — each at
 * the low and the high end of RANGE_RESPONSES_PER_TOPIC: a template's or bundle's range then
 * holds whatever of those the user picks (rating 3 answers costs more than ranking them).
 */
export function settingVariants(config: EstimateInput): EstimateInput[] {
  return EVALUATION_SCALES.flatMap((scale) =>
    [false, true].flatMap((bothOrders) =>
      [false, true].flatMap((skipOwnFamily) =>
        responseCountVariants({ ...config, scoringParameters: { scale, bothOrders, skipOwnFamily } }),
      ),
    ),
  );
}

/** '$2.00-3.40', or '$2.00' when both ends are the same. */
export function formatPriceRange(range: PriceRange): string {
  const dollars = (cents: number) => (cents / 100).toFixed(2);
  return range.minCents === range.maxCents
    ? `$${dollars(range.minCents)}`
    : `$${dollars(range.minCents)}-${dollars(range.maxCents)}`;
}

/** Bounds the server enforces on a test before quoting it (kept with every other limit in ./limits). */
export const LIMITS = TEST_LIMITS;

/** Calls a test makes; see CallCounts. */
export function countCalls(
  config: Pick<
    EstimateInput,
    | "generatorModels"
    | "evaluatorModels"
    | "personas"
    | "topics"
    | "responsesPerTopic"
    | "scoringParameters"
    | "repeats"
  >,
): CallCounts {
  // Each repeat runs every pair again (lib/repeats.ts): as many calls as that many more pairs.
  const pairs = config.personas.length * config.topics.length * repeatsOf(config.repeats);
  const generators = config.generatorModels.length;
  const generationCalls = generators * pairs;
  const expectedResponses = generationCalls * responsesPerTopicOf(config.responsesPerTopic);
  let evaluationCalls = 0;
  let expectedEvaluations = 0;
  if (generators > 0) {
    for (const evaluator of config.evaluatorModels) {
      const work = judgeWorkPerPair(config, modelIdOf(evaluator));
      evaluationCalls += pairs * work.calls;
      expectedEvaluations += pairs * work.evaluations;
    }
  }
  return {
    generationCalls,
    evaluationCalls,
    expectedResponses,
    expectedEvaluations,
    total: generationCalls + evaluationCalls,
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function checkModelList(
  problems: Problem[],
  field: string,
  refs: readonly ModelRef[],
  label: string,
  max: number,
): void {
  if (refs.length === 0) problems.push({ field, message: `Select at least one ${label} model.` });
  if (refs.length > max) problems.push({ field, message: `Select at most ${max} ${label} models.` });
  const ids = refs.map(modelIdOf);
  if (ids.some((id) => !id.trim())) problems.push({ field, message: `Every ${label} model needs an id.` });
  if (new Set(ids).size !== ids.length) {
    problems.push({ field, message: `Each ${label} model can only be selected once.` });
  }
}

/**
 * Everything wrong with a configuration before it can run, as user-facing messages
 * (empty when it can run). The missing-part messages double as the Run Test hints.
 */
export function validateTestConfig(config: TestConfig): Problem[] {
  const problems: Problem[] = [];
  if (config.name.trim().length > LIMITS.maxTestNameLength) {
    problems.push({ field: "name", message: `Test name must be ${LIMITS.maxTestNameLength} characters or fewer.` });
  }
  checkModelList(problems, "generatorModels", config.generatorModels, "generator", LIMITS.maxGeneratorModels);
  checkModelList(problems, "evaluatorModels", config.evaluatorModels, "evaluator", LIMITS.maxEvaluatorModels);

  if (config.personas.length === 0) problems.push({ field: "personas", message: "Add at least one persona." });
  if (config.personas.length > LIMITS.maxPersonas) {
    problems.push({ field: "personas", message: `Add at most ${LIMITS.maxPersonas} personas.` });
  }
  config.personas.forEach((persona, index) => {
    for (const problem of validatePersona(persona)) {
      problems.push({
        field: `personas.${index}.${problem.field}`,
        message: `Persona ${index + 1}: ${problem.message}`,
      });
    }
  });

  if (config.topics.length === 0) problems.push({ field: "topics", message: "Add at least one topic." });
  if (config.topics.length > LIMITS.maxTopics) {
    problems.push({ field: "topics", message: `Add at most ${LIMITS.maxTopics} topics.` });
  }
  config.topics.forEach((topic, index) => {
    for (const problem of validateTopic(topic)) {
      problems.push({ field: `topics.${index}.${problem.field}`, message: `Topic ${index + 1}: ${problem.message}` });
    }
  });

  if (config.userPrompt.length > LIMITS.maxUserPromptLength) {
    problems.push({
      field: "userPrompt",
      message: `The prompt must be ${LIMITS.maxUserPromptLength.toLocaleString("en-US")} characters or fewer.`,
    });
  }
  if ((config.rankingPrompt ?? "").length > LIMITS.maxRankingPromptLength) {
    problems.push({
      field: "rankingPrompt",
      message: `The ranking prompt must be ${LIMITS.maxRankingPromptLength.toLocaleString("en-US")} characters or fewer.`,
    });
  }

  const responses = config.responsesPerTopic;
  if (
    !Number.isInteger(responses) ||
    responses < LIMITS.minResponsesPerTopic ||
    responses > LIMITS.maxResponsesPerTopic
  ) {
    problems.push({
      field: "responsesPerTopic",
      message: `Responses per topic must be a whole number from ${LIMITS.minResponsesPerTopic} to ${LIMITS.maxResponsesPerTopic}.`,
    });
  }

  if (selectedCriteria(config.evaluationCriteria).length === 0) {
    problems.push({ field: "evaluationCriteria", message: "Select at least one evaluation criterion." });
  }

  const answersPerRanking = config.generatorModels.length * responsesPerTopicOf(responses);
  if (config.scoringParameters.scale === "ranking" && answersPerRanking > LIMITS.maxAnswersPerRanking) {
    problems.push({
      field: "scoringParameters",
      message:
        `Ranking compares every answer to a persona and topic at once: ${plural(config.generatorModels.length, "model")} × ` +
        `${plural(responsesPerTopicOf(responses), "response")} is ${answersPerRanking} answers, more than ` +
        `${LIMITS.maxAnswersPerRanking}. Use fewer models or responses per topic, or the rating scale.`,
    });
  }

  problems.push(...repeatProblems(config.repeats));
  problems.push(...configurationLimitProblems(config));
  problems.push(
    ...checkProblems(
      config.checks,
      config.topics.map((topic) => topic.id),
    ),
  );

  const calls = countCalls(config);
  if (calls.total > LIMITS.maxCallsPerTest) {
    problems.push({
      field: "calls",
      message:
        `This test needs ${calls.total.toLocaleString("en-US")} model calls (${calls.generationCalls.toLocaleString("en-US")} to generate, ` +
        `${calls.evaluationCalls.toLocaleString("en-US")} to evaluate); the limit is ${LIMITS.maxCallsPerTest.toLocaleString("en-US")}. ` +
        `Use fewer models, personas, topics${repeatsOf(config.repeats) > 1 ? ", repeats" : ""} or responses per topic.`,
    });
  }
  return problems;
}
