/**
 * The dev gateway's model catalog, in OpenRouter's `/models` shape.
 *
 * Prices are realistic list prices in dollars per million tokens; they are
 * turned into OpenRouter's per-token decimal strings when served. The
 * catalog deliberately spans every tier of spec part 1 §9 (blended price
 * 0.7 × prompt + 0.3 × completion per million tokens), plus a few free models
 * and a few priced at or above the spec's filter ($100/M) so the app's model
 * filter has something to drop. Two models have no `context_length`, to
 * exercise the 4096-token default.
 *
 * `quality` (0..1) and `latencyMs` are hidden: only the gateway uses them,
 * to shape replies and delays. They are never sent to clients.
 */

export interface CatalogModel {
  id: string;
  name: string;
  description: string;
  /** Omitted on purpose for a couple of models (spec default: 4096). */
  contextLength?: number;
  maxCompletionTokens: number | null;
  isModerated: boolean;
  /** Dollars per million prompt tokens. */
  promptPerMillion: number;
  /** Dollars per million completion tokens. */
  completionPerMillion: number;
  /** Unix seconds. */
  created: number;
  /** Hidden answer quality, 0..1: longer, more specific answers and better judging. */
  quality: number;
  /** Hidden typical response time in milliseconds at latencyScale 1. */
  latencyMs: number;
  /**
   * Hidden verbosity: filler sentences (more words, no substance) added to every answer, so a
   * few models write long without writing better, as real ones do. Omitted = 0.
   */
  verbosity?: number;
}

/** One entry of `GET /api/v1/models`, as OpenRouter serves it. */
export interface OpenRouterModel {
  id: string;
  name: string;
  description: string;
  context_length?: number;
  created: number;
  pricing: { prompt: string; completion: string };
  top_provider: {
    context_length: number | null;
    max_completion_tokens: number | null;
    is_moderated: boolean;
  };
  per_request_limits: null;
}

const day = (isoDate: string): number => Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / 1000);

export const catalog: readonly CatalogModel[] = [
  // ── FREE ────────────────────────────────────────────────────────────────
  {
    id: "meta-llama/llama-3.2-3b-instruct:free",
    name: "Meta: Llama 3.2 3B Instruct (free)",
    description: "A small multilingual instruction-tuned model for dialogue, summarisation and simple agentic tasks.",
    contextLength: 131072,
    maxCompletionTokens: 4096,
    isModerated: false,
    promptPerMillion: 0,
    completionPerMillion: 0,
    created: day("2024-09-25"),
    quality: 0.28,
    latencyMs: 700,
  },
  {
    id: "google/gemma-2-9b-it:free",
    name: "Google: Gemma 2 9B (free)",
    description: "An open model from Google built from the research behind Gemini, tuned for instruction following.",
    contextLength: 8192,
    maxCompletionTokens: 8192,
    isModerated: false,
    promptPerMillion: 0,
    completionPerMillion: 0,
    created: day("2024-06-28"),
    quality: 0.34,
    latencyMs: 800,
  },
  {
    id: "mistralai/mistral-7b-instruct:free",
    name: "Mistral: Mistral 7B Instruct (free)",
    description: "A fast 7B model optimised for speed and context length, good for simple instructions.",
    // No context_length on purpose: exercises the 4096 default.
    maxCompletionTokens: null,
    isModerated: false,
    promptPerMillion: 0,
    completionPerMillion: 0,
    created: day("2024-05-27"),
    quality: 0.25,
    latencyMs: 600,
  },
  // ── BUDGET (≤ $1/M blended) ─────────────────────────────────────────────
  {
    id: "meta-llama/llama-3.1-8b-instruct",
    name: "Meta: Llama 3.1 8B Instruct",
    description: "A fast, efficient 8B model for high-volume, low-cost workloads.",
    contextLength: 131072,
    maxCompletionTokens: 16384,
    isModerated: false,
    promptPerMillion: 0.02,
    completionPerMillion: 0.05,
    created: day("2024-07-23"),
    quality: 0.36,
    latencyMs: 650,
  },
  {
    id: "cohere/command-r7b-12-2024",
    name: "Cohere: Command R7B (12-2024)",
    description: "A small, fast update of the Command R family, strong at RAG, tool use and reasoning over documents.",
    contextLength: 128000,
    maxCompletionTokens: 4000,
    isModerated: true,
    promptPerMillion: 0.0375,
    completionPerMillion: 0.15,
    created: day("2024-12-14"),
    quality: 0.4,
    latencyMs: 750,
  },
  {
    id: "mistralai/mistral-small-3.1-24b-instruct",
    name: "Mistral: Mistral Small 3.1 24B",
    description:
      "A 24B model with strong text and vision performance, suited to conversational agents and function calling.",
    contextLength: 128000,
    maxCompletionTokens: 32768,
    isModerated: false,
    promptPerMillion: 0.1,
    completionPerMillion: 0.3,
    created: day("2025-03-17"),
    quality: 0.52,
    latencyMs: 900,
  },
  {
    id: "google/gemini-2.0-flash-001",
    name: "Google: Gemini 2.0 Flash",
    description: "A fast multimodal model with a 1M-token context window and quality close to larger models.",
    contextLength: 1048576,
    maxCompletionTokens: 8192,
    isModerated: false,
    promptPerMillion: 0.1,
    completionPerMillion: 0.4,
    created: day("2025-02-05"),
    quality: 0.64,
    latencyMs: 800,
  },
  {
    id: "qwen/qwen-2.5-72b-instruct",
    name: "Qwen: Qwen2.5 72B Instruct",
    description: "A 72B model with strong coding, mathematics and structured-output abilities.",
    contextLength: 32768,
    maxCompletionTokens: 16384,
    isModerated: false,
    promptPerMillion: 0.12,
    completionPerMillion: 0.39,
    created: day("2024-09-19"),
    quality: 0.58,
    latencyMs: 1500,
  },
  {
    id: "meta-llama/llama-3.3-70b-instruct",
    name: "Meta: Llama 3.3 70B Instruct",
    description: "A multilingual 70B model that matches much larger models on many instruction-following benchmarks.",
    contextLength: 131072,
    maxCompletionTokens: 16384,
    isModerated: false,
    promptPerMillion: 0.13,
    completionPerMillion: 0.4,
    created: day("2024-12-06"),
    quality: 0.6,
    latencyMs: 1300,
  },
  {
    id: "openai/gpt-4o-mini",
    name: "OpenAI: GPT-4o-mini",
    description: "OpenAI's affordable small model, more capable than GPT-3.5 Turbo at a fraction of the price.",
    contextLength: 128000,
    maxCompletionTokens: 16384,
    isModerated: true,
    promptPerMillion: 0.15,
    completionPerMillion: 0.6,
    created: day("2024-07-18"),
    quality: 0.62,
    latencyMs: 900,
  },
  {
    id: "x-ai/grok-3-mini",
    name: "xAI: Grok 3 Mini",
    description: "A lightweight thinking model, fast and economical for logic-based tasks.",
    contextLength: 131072,
    maxCompletionTokens: null,
    isModerated: false,
    promptPerMillion: 0.3,
    completionPerMillion: 0.5,
    created: day("2025-04-09"),
    quality: 0.63,
    latencyMs: 1400,
  },
  {
    id: "anthropic/claude-3-haiku",
    name: "Anthropic: Claude 3 Haiku",
    description: "Anthropic's fastest Claude 3 model, built for near-instant responsiveness.",
    contextLength: 200000,
    maxCompletionTokens: 4096,
    isModerated: true,
    promptPerMillion: 0.25,
    completionPerMillion: 1.25,
    created: day("2024-03-13"),
    quality: 0.48,
    latencyMs: 700,
  },
  {
    id: "deepseek/deepseek-chat",
    name: "DeepSeek: DeepSeek V3",
    description: "A mixture-of-experts chat model with strong reasoning, coding and instruction following.",
    contextLength: 163840,
    maxCompletionTokens: 163840,
    isModerated: false,
    promptPerMillion: 0.27,
    completionPerMillion: 1.1,
    created: day("2024-12-26"),
    quality: 0.72,
    latencyMs: 2200,
  },
  {
    id: "google/gemini-2.5-flash",
    name: "Google: Gemini 2.5 Flash",
    description: "A workhorse thinking model for reasoning, coding, mathematics and science at low cost.",
    contextLength: 1048576,
    maxCompletionTokens: 65535,
    isModerated: false,
    promptPerMillion: 0.3,
    completionPerMillion: 2.5,
    created: day("2025-06-17"),
    quality: 0.74,
    latencyMs: 1100,
  },
  {
    id: "qwen/qwq-32b",
    name: "Qwen: QwQ 32B",
    description: "A reasoning model of the Qwen series that thinks before it answers.",
    // No context_length on purpose: exercises the 4096 default.
    maxCompletionTokens: null,
    isModerated: false,
    promptPerMillion: 0.15,
    completionPerMillion: 0.2,
    created: day("2025-03-05"),
    quality: 0.6,
    latencyMs: 2600,
  },
  // ── STANDARD (≤ $5/M) ───────────────────────────────────────────────────
  {
    id: "deepseek/deepseek-r1",
    name: "DeepSeek: R1",
    description: "An open reasoning model with performance on par with leading closed reasoning models.",
    contextLength: 163840,
    maxCompletionTokens: 163840,
    isModerated: false,
    promptPerMillion: 0.55,
    completionPerMillion: 2.19,
    created: day("2025-01-20"),
    quality: 0.79,
    latencyMs: 3500,
  },
  {
    id: "amazon/nova-pro-v1",
    name: "Amazon: Nova Pro 1.0",
    description: "A capable multimodal model from Amazon balancing accuracy, speed and cost.",
    contextLength: 300000,
    maxCompletionTokens: 5120,
    isModerated: true,
    promptPerMillion: 0.8,
    completionPerMillion: 3.2,
    created: day("2024-12-03"),
    quality: 0.63,
    latencyMs: 1200,
    verbosity: 3,
  },
  {
    id: "anthropic/claude-3.5-haiku",
    name: "Anthropic: Claude 3.5 Haiku",
    description: "Fast and accurate, with improved coding, tool use and reasoning over Claude 3 Haiku.",
    contextLength: 200000,
    maxCompletionTokens: 8192,
    isModerated: true,
    promptPerMillion: 0.8,
    completionPerMillion: 4,
    created: day("2024-11-04"),
    quality: 0.67,
    latencyMs: 1000,
  },
  {
    id: "openai/o4-mini",
    name: "OpenAI: o4 Mini",
    description:
      "A compact reasoning model optimised for fast, cost-efficient performance in maths, coding and visual tasks.",
    contextLength: 200000,
    maxCompletionTokens: 100000,
    isModerated: true,
    promptPerMillion: 1.1,
    completionPerMillion: 4.4,
    created: day("2025-04-16"),
    quality: 0.82,
    latencyMs: 3000,
  },
  {
    id: "mistralai/mistral-large",
    name: "Mistral: Mistral Large",
    description: "Mistral's flagship model, strong at reasoning, code, JSON output and multilingual text.",
    contextLength: 128000,
    maxCompletionTokens: null,
    isModerated: false,
    promptPerMillion: 2,
    completionPerMillion: 6,
    created: day("2024-02-26"),
    quality: 0.74,
    latencyMs: 1800,
  },
  {
    id: "openai/gpt-4.1",
    name: "OpenAI: GPT-4.1",
    description:
      "A flagship model for advanced instruction following, software engineering and long-context reasoning.",
    contextLength: 1047576,
    maxCompletionTokens: 32768,
    isModerated: true,
    promptPerMillion: 2,
    completionPerMillion: 8,
    created: day("2025-04-14"),
    quality: 0.85,
    latencyMs: 1600,
  },
  {
    id: "google/gemini-2.5-pro",
    name: "Google: Gemini 2.5 Pro",
    description: "Google's state-of-the-art model for advanced reasoning, coding, mathematics and scientific tasks.",
    contextLength: 1048576,
    maxCompletionTokens: 65536,
    isModerated: false,
    promptPerMillion: 1.25,
    completionPerMillion: 10,
    created: day("2025-06-17"),
    quality: 0.89,
    latencyMs: 2800,
  },
  {
    id: "openai/gpt-4o",
    name: "OpenAI: GPT-4o",
    description:
      'OpenAI\'s versatile "omni" model: GPT-4 Turbo intelligence, faster and cheaper, with text and image input.',
    contextLength: 128000,
    maxCompletionTokens: 16384,
    isModerated: true,
    promptPerMillion: 2.5,
    completionPerMillion: 10,
    created: day("2024-05-13"),
    quality: 0.8,
    latencyMs: 1400,
  },
  {
    id: "cohere/command-r-plus",
    name: "Cohere: Command R+",
    description:
      "A 104B model for enterprise use: retrieval-augmented generation, multi-step tool use and ten languages.",
    contextLength: 128000,
    maxCompletionTokens: 4000,
    isModerated: true,
    promptPerMillion: 2.5,
    completionPerMillion: 10,
    created: day("2024-04-04"),
    quality: 0.66,
    latencyMs: 1700,
    verbosity: 3,
  },
  // ── PREMIUM (≤ $15/M) ───────────────────────────────────────────────────
  {
    id: "anthropic/claude-sonnet-4",
    name: "Anthropic: Claude Sonnet 4",
    description:
      "A balanced frontier model with state-of-the-art coding, careful reasoning and precise instruction following.",
    contextLength: 200000,
    maxCompletionTokens: 64000,
    isModerated: true,
    promptPerMillion: 3,
    completionPerMillion: 15,
    created: day("2025-05-22"),
    quality: 0.9,
    latencyMs: 2000,
  },
  {
    id: "x-ai/grok-3",
    name: "xAI: Grok 3",
    description:
      "xAI's flagship model, strong at data extraction, coding and text summarisation with deep domain knowledge.",
    contextLength: 131072,
    maxCompletionTokens: null,
    isModerated: false,
    promptPerMillion: 3,
    completionPerMillion: 15,
    created: day("2025-06-10"),
    quality: 0.84,
    latencyMs: 2100,
  },
  {
    id: "perplexity/sonar-pro",
    name: "Perplexity: Sonar Pro",
    description: "An answer model for multi-step queries, with grounded, citation-rich responses.",
    contextLength: 200000,
    maxCompletionTokens: 8000,
    isModerated: false,
    promptPerMillion: 3,
    completionPerMillion: 15,
    created: day("2025-03-07"),
    quality: 0.76,
    latencyMs: 2400,
    verbosity: 3,
  },
  {
    id: "openai/chatgpt-4o-latest",
    name: "OpenAI: ChatGPT-4o",
    description: "The GPT-4o version used in ChatGPT, continuously updated.",
    contextLength: 128000,
    maxCompletionTokens: 16384,
    isModerated: true,
    promptPerMillion: 5,
    completionPerMillion: 15,
    created: day("2024-08-14"),
    quality: 0.81,
    latencyMs: 1500,
  },
  // ── ENTERPRISE (≤ $50/M) ────────────────────────────────────────────────
  {
    id: "openai/gpt-4-turbo",
    name: "OpenAI: GPT-4 Turbo",
    description: "The GPT-4 Turbo model with vision, a 128k context window and knowledge up to December 2023.",
    contextLength: 128000,
    maxCompletionTokens: 4096,
    isModerated: true,
    promptPerMillion: 10,
    completionPerMillion: 30,
    created: day("2024-04-09"),
    quality: 0.77,
    latencyMs: 2500,
  },
  {
    id: "openai/o1",
    name: "OpenAI: o1",
    description:
      "A reasoning model that spends more time thinking before it answers, for hard science, coding and maths.",
    contextLength: 200000,
    maxCompletionTokens: 100000,
    isModerated: true,
    promptPerMillion: 15,
    completionPerMillion: 60,
    created: day("2024-12-17"),
    quality: 0.92,
    latencyMs: 5000,
  },
  {
    id: "anthropic/claude-opus-4",
    name: "Anthropic: Claude Opus 4",
    description:
      "Anthropic's most capable model: sustained performance on complex, long-running tasks and agent workflows.",
    contextLength: 200000,
    maxCompletionTokens: 32000,
    isModerated: true,
    promptPerMillion: 15,
    completionPerMillion: 75,
    created: day("2025-05-22"),
    quality: 0.95,
    latencyMs: 3200,
  },
  // ── Above the spec's filter (a price ≥ $100/M, i.e. ≥ 0.0001 per token) ─
  {
    id: "openai/gpt-4-32k",
    name: "OpenAI: GPT-4 32k",
    description: "GPT-4 with a 32k context window, kept for compatibility. Superseded by GPT-4 Turbo.",
    contextLength: 32767,
    maxCompletionTokens: 4096,
    isModerated: true,
    promptPerMillion: 60,
    completionPerMillion: 120,
    created: day("2023-05-28"),
    quality: 0.7,
    latencyMs: 4000,
  },
  {
    id: "openai/gpt-4.5-preview",
    name: "OpenAI: GPT-4.5 (Preview)",
    description: "A research preview of a very large model with broad knowledge and strong writing.",
    contextLength: 128000,
    maxCompletionTokens: 16384,
    isModerated: true,
    promptPerMillion: 75,
    completionPerMillion: 150,
    created: day("2025-02-27"),
    quality: 0.9,
    latencyMs: 4500,
  },
  {
    id: "openai/o1-pro",
    name: "OpenAI: o1-pro",
    description: "The o1 family with more compute for harder problems and more consistent answers.",
    contextLength: 200000,
    maxCompletionTokens: 100000,
    isModerated: true,
    promptPerMillion: 150,
    completionPerMillion: 600,
    created: day("2025-03-19"),
    quality: 0.96,
    latencyMs: 9000,
  },
];

/**
 * How a model behaves as a judge, on top of what it perceives of an answer (the answer's length
 * and specificity, which follow the hidden `quality` of the model that wrote it). Scores are on
 * the gateway's internal 0..1 scale, where answers of the catalog's weakest and strongest
 * generators lie about 0.5 apart.
 */
export interface JudgeProfile {
  /** Multiplies the judge's noise, whose amplitude is 0.1 + 0.25 × (1 − quality). */
  noise: number;
  /** Added to the answer shown first when several are ranked together (position bias). */
  positionBias: number;
  /** Added to answers written by a model of the judge's own provider family (self-preference). */
  selfPreference: number;
  /** Added per 100 words of the answer, beyond what length already says about quality (length bias). */
  lengthBias: number;
}

export const FAIR_JUDGE: JudgeProfile = { noise: 1, positionBias: 0, selfPreference: 0, lengthBias: 0 };

/**
 * The planted imperfections of the dev gateway's jury, so the jury statistics have something real
 * to find. Every other model is a fair judge with noise that shrinks as its quality grows.
 *
 * - `meta-llama/llama-3.1-8b-instruct`: position-biased — it puts the first answer it is shown
 *   first far more often than chance.
 * - `google/gemini-2.5-flash`: self-preferring — it favours answers written by Google models
 *   (gemma, gemini), which it recognises.
 * - `qwen/qwq-32b`: length-favouring — it rewards long answers beyond their substance.
 * - `mistralai/mistral-small-3.1-24b-instruct`: a fair but noisy judge (twice its usual noise).
 *
 * The gateway's `judgeProfiles` setting overrides these per model, and `plantedJudges: false`
 * turns them all off (every judge fair).
 */
export const PLANTED_JUDGES: Readonly<Record<string, Partial<JudgeProfile>>> = {
  "meta-llama/llama-3.1-8b-instruct": { positionBias: 0.35 },
  "google/gemini-2.5-flash": { selfPreference: 0.3 },
  "qwen/qwq-32b": { lengthBias: 0.4 },
  "mistralai/mistral-small-3.1-24b-instruct": { noise: 2 },
};

/** The provider part of a model id: "google/gemini-2.5-flash" → "google". */
export function modelFamily(modelId: string): string {
  return modelId.split("/")[0] ?? modelId;
}

const byId = new Map(catalog.map((model) => [model.id, model]));

export function findCatalogModel(id: string): CatalogModel | undefined {
  return byId.get(id);
}

/** Dollars per million tokens → OpenRouter's per-token decimal string, never in exponent notation. */
export function perTokenPriceString(perMillion: number): string {
  if (perMillion === 0) return "0";
  return (perMillion / 1_000_000).toFixed(12).replace(/0+$/, "").replace(/\.$/, "");
}

/** Blended dollars per million tokens, as spec part 1 §9 defines it for tiers. */
export function blendedPerMillion(model: Pick<CatalogModel, "promptPerMillion" | "completionPerMillion">): number {
  return 0.7 * model.promptPerMillion + 0.3 * model.completionPerMillion;
}

export function toOpenRouterModel(model: CatalogModel): OpenRouterModel {
  const served: OpenRouterModel = {
    id: model.id,
    name: model.name,
    description: model.description,
    created: model.created,
    pricing: {
      prompt: perTokenPriceString(model.promptPerMillion),
      completion: perTokenPriceString(model.completionPerMillion),
    },
    top_provider: {
      context_length: model.contextLength ?? null,
      max_completion_tokens: model.maxCompletionTokens,
      is_moderated: model.isModerated,
    },
    per_request_limits: null,
  };
  if (model.contextLength !== undefined) served.context_length = model.contextLength;
  return served;
}
