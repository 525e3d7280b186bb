// The schemas of the HTTP API's requests and answers (lib/openapi.ts, components.schemas), checks typed kind by kind.
import { CHECK_LIMITS, TEST_LIMITS } from "./limits";

/** A reference to one of the schemas below. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const number = { type: "number" };
const integer = { type: "integer" };
export const text = { type: "string" };
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: "null" }] });
const counts = {
  type: "object",
  required: ["done", "expected", "missing"],
  properties: { done: integer, expected: integer, missing: integer },
};
const interval = { type: "object", required: ["low", "high"], properties: { low: number, high: number } };
const passRate = {
  type: "object",
  required: ["answers", "passed", "rate", "interval"],
  properties: { answers: integer, passed: integer, rate: nullable(number), interval: nullable(interval) },
};

/** A check of one kind: its id and kind, the fields its kind takes (required ones listed), an optional topic. */
function checkOf(kind: string, description: string, fields: Record<string, unknown>, required: string[]) {
  return {
    type: "object",
    title: kind,
    description,
    required: ["id", "kind", ...required],
    additionalProperties: false,
    properties: {
      id: {
        type: "string",
        minLength: 1,
        maxLength: 100,
        description: "Required, unique among the test's checks: gates and results name the check by it.",
      },
      kind: { const: kind },
      topicId: {
        type: "string",
        description: "Check only this topic's answers (a topic's id); every topic without it.",
      },
      ...fields,
    },
  };
}

const caseSensitive = { type: "boolean", default: true };
const textValue = { type: "string", minLength: 1, maxLength: CHECK_LIMITS.maxTextLength };

/** Every named schema of the API. */
export function openApiSchemas() {
  return {
    Error: {
      type: "object",
      required: ["error"],
      properties: {
        error: {
          type: "object",
          required: ["code", "message", "problems"],
          properties: {
            code: {
              enum: [
                "INVALID_INPUT",
                "UNAUTHENTICATED",
                "FORBIDDEN",
                "NOT_FOUND",
                "METHOD_NOT_ALLOWED",
                "CONFLICT",
                "PAYLOAD_TOO_LARGE",
                "RATE_LIMITED",
                "PAYMENT_REQUIRED",
                "UNAVAILABLE",
                "INTERNAL",
              ],
            },
            message: text,
            field: { type: "string", description: "The first problem's field." },
            problems: {
              type: "array",
              description: "Every wrong field, by its path in the request (`checks[0].kind`); empty otherwise.",
              items: {
                type: "object",
                required: ["field", "message"],
                properties: { field: text, message: text },
              },
            },
          },
        },
      },
    },
    ConfigurationRequest: {
      description: "A configuration, or { configuration: {…} }.",
      oneOf: [
        {
          type: "object",
          required: ["configuration"],
          properties: { configuration: ref("Configuration") },
        },
        ref("Configuration"),
      ],
    },
    Configuration: {
      type: "object",
      description:
        "The setup page's configuration. Models are gateway ids; personas and topics need no ids; evaluation " +
        "settings default to the setup page's.",
      required: ["personas", "topics", "generatorModels", "evaluatorModels"],
      properties: {
        name: { type: "string", maxLength: TEST_LIMITS.maxTestNameLength },
        taskType: text,
        userPrompt: { type: "string", maxLength: TEST_LIMITS.maxUserPromptLength },
        personas: {
          type: "array",
          maxItems: TEST_LIMITS.maxPersonas,
          items: {
            type: "object",
            required: ["name", "description", "systemPrompt"],
            properties: { id: text, name: text, description: text, systemPrompt: text },
          },
        },
        topics: {
          type: "array",
          maxItems: TEST_LIMITS.maxTopics,
          items: {
            type: "object",
            required: ["title", "description", "prompt"],
            properties: { id: text, title: text, description: text, prompt: text },
          },
        },
        generatorModels: {
          type: "array",
          maxItems: TEST_LIMITS.maxGeneratorModels,
          items: { type: "string", examples: ["openai/gpt-4o"] },
        },
        evaluatorModels: { type: "array", maxItems: TEST_LIMITS.maxEvaluatorModels, items: text },
        responsesPerTopic: {
          type: "integer",
          minimum: TEST_LIMITS.minResponsesPerTopic,
          maximum: TEST_LIMITS.maxResponsesPerTopic,
          default: 2,
        },
        rankingPrompt: { type: "string", maxLength: TEST_LIMITS.maxRankingPromptLength },
        evaluationCriteria: { type: "array", items: text, examples: [["accuracy", "clarity"]] },
        scale: { enum: ["ranking", "rating"], default: "ranking" },
        includeExplanations: { type: "boolean", default: true },
        bothOrders: { type: "boolean" },
        checks: {
          type: "array",
          maxItems: CHECK_LIMITS.maxChecks,
          description: "Checks on every answer (or one topic's), as the setup page's Checks section stores them.",
          items: ref("Check"),
        },
        failedChecksRankLast: { type: "boolean" },
        stopWhenSettled: ref("StopWhenSettled"),
        repeats: {
          type: "integer",
          minimum: TEST_LIMITS.minRepeats,
          maximum: TEST_LIMITS.maxRepeats,
          default: 1,
          description:
            "Runs of each model × persona × topic, each a fresh call judged on its own; every call and the price " +
            "are multiplied by it. The results give each model's spread between repeats.",
        },
      },
    },
    StopWhenSettled: {
      type: "object",
      description:
        "Stop when settled: the pairs run in a seeded random order and the test ends, completed, once the question " +
        "is settled at the confidence (anytime-valid confidence sequences); the calls not made are refunded.",
      required: ["question"],
      properties: {
        question: { enum: ["best", "withinDelta", "passRate"], default: "best" },
        confidence: { type: "number", minimum: 0.8, maximum: 0.999, default: 0.95 },
        modelId: { type: "string", description: "withinDelta: the model compared with the best." },
        delta: { type: "number", minimum: 0, maximum: 10, description: "withinDelta: δ in points on 10." },
        minPassRate: {
          type: "number",
          exclusiveMinimum: 0,
          exclusiveMaximum: 1,
          description: "passRate: the lowest share of answers passing every check.",
        },
        seed: { type: "string", description: "Orders the pairs; set at creation when absent." },
      },
      additionalProperties: false,
    },
    Check: {
      oneOf: [
        checkOf("contains", "The answer contains the text.", { value: textValue, caseSensitive }, ["value"]),
        checkOf("notContains", "The answer does not contain the text.", { value: textValue, caseSensitive }, ["value"]),
        checkOf("startsWith", "The answer starts with the text.", { value: textValue, caseSensitive }, ["value"]),
        checkOf("regex", "The answer matches the RE2 pattern.", { value: textValue }, ["value"]),
        checkOf("json", "The answer is valid JSON.", {}, []),
        checkOf(
          "jsonSchema",
          "The answer is JSON that fits the schema (given as JSON text).",
          { value: { type: "string", minLength: 1, maxLength: CHECK_LIMITS.maxSchemaLength } },
          ["value"],
        ),
        checkOf(
          "length",
          "The answer's length is within min and max (at least one of them).",
          {
            unit: { enum: ["words", "characters"], default: "words" },
            min: { type: "integer", minimum: 0, maximum: CHECK_LIMITS.maxLength },
            max: { type: "integer", minimum: 0, maximum: CHECK_LIMITS.maxLength },
          },
          [],
        ),
        checkOf(
          "latency",
          "The answer came within max milliseconds.",
          { max: { type: "number", exclusiveMinimum: 0, maximum: CHECK_LIMITS.maxLatencyMs } },
          ["max"],
        ),
        checkOf(
          "cost",
          "The answer cost at most max dollars.",
          { max: { type: "number", exclusiveMinimum: 0, maximum: CHECK_LIMITS.maxCostUsd } },
          ["max"],
        ),
      ],
    },
    Estimate: {
      type: "object",
      required: ["generationCost", "evaluationCost", "totalCost", "totalQueries", "estimatedTokens"],
      properties: {
        generationCost: number,
        evaluationCost: number,
        totalCost: number,
        totalQueries: integer,
        estimatedTokens: integer,
      },
    },
    Quote: {
      type: "object",
      required: ["priceCents", "paymentRequired", "usesOwnKey", "estimate", "calls"],
      properties: {
        priceCents: integer,
        paymentRequired: { type: "boolean" },
        usesOwnKey: { type: "boolean" },
        estimate: ref("Estimate"),
        calls: {
          type: "object",
          required: ["generation", "evaluation", "total"],
          properties: { generation: integer, evaluation: integer, total: integer },
        },
      },
    },
    StoredQuote: {
      type: "object",
      required: [
        "testId",
        "priceCents",
        "paymentRequired",
        "usesOwnKey",
        "estimate",
        "expectedResponses",
        "expectedEvaluations",
      ],
      properties: {
        testId: text,
        priceCents: integer,
        paymentRequired: { type: "boolean" },
        usesOwnKey: { type: "boolean" },
        estimate: ref("Estimate"),
        expectedResponses: integer,
        expectedEvaluations: integer,
      },
    },
    TestStatus: {
      type: "object",
      required: [
        "testId",
        "name",
        "status",
        "final",
        "awaitingPayment",
        "progress",
        "responses",
        "evaluations",
        "priceCents",
        "chargedCents",
        "usesOwnKey",
        "gatewayCostUsd",
        "createdAt",
      ],
      properties: {
        testId: text,
        name: text,
        status: { enum: ["pending", "running", "completed", "failed", "cancelled"] },
        final: {
          type: "boolean",
          description: "The test ended and its figures are stored: results read now will not change.",
        },
        awaitingPayment: { type: "boolean" },
        progress: {
          type: "object",
          required: ["phase", "percentage"],
          properties: { phase: text, percentage: number, estimatedTimeRemaining: text },
        },
        responses: counts,
        evaluations: counts,
        priceCents: integer,
        chargedCents: { type: "integer", description: "What the user was charged (0 on their own key)." },
        usesOwnKey: { type: "boolean" },
        gatewayCostUsd: { type: "number", description: "What the model calls cost at the gateway." },
        createdAt: number,
        startedAt: number,
        completedAt: number,
        error: text,
        lastCallError: text,
      },
    },
    TestListItem: {
      type: "object",
      required: ["testId", "name", "status", "createdAt", "priceCents", "gatewayCostUsd", "topPerformers"],
      properties: {
        testId: text,
        name: text,
        status: text,
        createdAt: number,
        completedAt: number,
        priceCents: integer,
        gatewayCostUsd: number,
        topPerformers: { type: "array", items: text },
      },
    },
    Results: {
      type: "object",
      required: ["test", "final", "metrics", "rankings", "topGroup", "verdict", "jury", "checks", "settle"],
      properties: {
        test: ref("TestStatus"),
        final: { type: "boolean", description: "As the test's `final`." },
        metrics: { type: "object" },
        rankings: {
          type: "array",
          items: {
            type: "object",
            required: ["modelId", "modelName", "averageScore", "responses", "evaluations", "meanScore", "rank"],
            properties: {
              modelId: text,
              modelName: text,
              averageScore: { type: "number", description: "0-10" },
              responses: integer,
              evaluations: integer,
              meanScore: nullable(number),
              scoreInterval: nullable(interval),
              rank: {
                description: "Best and worst rank the 95% intervals allow; best 1 is the top tie group.",
                anyOf: [
                  {
                    type: "object",
                    required: ["best", "worst"],
                    properties: { best: integer, worst: integer },
                  },
                  { type: "null" },
                ],
              },
              rating: {},
              ratingInterval: {},
            },
          },
        },
        topGroup: {
          type: "array",
          items: { type: "string" },
          description: "Model ids tied for first; empty when there is too little evidence.",
        },
        verdict: {
          type: ["object", "null"],
          description: "The jury's decision, worded as on the results page; null before the jury has statistics.",
          properties: {
            kind: {
              type: "string",
              enum: ["best", "tied", "thin", "none"],
              description:
                "best: one model's 95% interval is above every other's; tied: too close to call; thin: too little evidence (fewer than 4 persona × topic pairs, or one judge call per answer); none: nothing scored.",
            },
            label: { type: "string", description: '"X is best", "Too close to call" or "Too little evidence".' },
            text: { type: "string", description: "The decision in one sentence, with what would settle it." },
            leaders: {
              type: "array",
              items: { type: "string" },
              description: "The best model, or the models tied for first, by id.",
            },
            extraTopicsRange: {
              type: ["object", "null"],
              description: "Topics to add that would likely separate a tie, as a range; null without an estimate.",
              properties: { low: { type: "integer" }, high: { type: "integer" } },
            },
          },
        },
        jury: {
          anyOf: [{ type: "object" }, { type: "null" }],
          description: "The jury statistics of the results page.",
        },
        settle: {
          type: ["object", "null"],
          description:
            "Stop when settled, worded as on the results page: the question, the last look and, once the test stopped early, why; null for a test without the setting.",
          required: [
            "question",
            "line",
            "settled",
            "pairsDone",
            "pairsTotal",
            "stopped",
            "settledAfter",
            "stoppedReason",
          ],
          properties: {
            question: { type: "string", description: '"Which model is best?"' },
            line: { type: ["string", "null"], description: '"Settled at 95%: X is best" or "Not settled yet: …".' },
            settled: { type: "boolean" },
            pairsDone: { type: ["integer", "null"], description: "Persona × topic pairs the last look read." },
            pairsTotal: { type: ["integer", "null"] },
            stopped: {
              type: ["object", "null"],
              description: "Set when the test stopped early: after pairsDone of pairsTotal pairs.",
              properties: {
                reason: { enum: ["settled"] },
                pairsDone: { type: "integer" },
                pairsTotal: { type: "integer" },
              },
            },
            settledAfter: { type: ["string", "null"], description: '"Settled after 38 of 100 pairs".' },
            stoppedReason: {
              type: ["string", "null"],
              description: "Why it stopped, and that the other pairs' calls were not made.",
            },
          },
        },
        checks: {
          description:
            "Check pass rates per model (overall and per check) with 95% Wilson intervals; null without checks.",
          anyOf: [
            {
              type: "object",
              required: ["checks", "models"],
              properties: {
                checks: {
                  type: "array",
                  items: { type: "object", required: ["id", "label"], properties: { id: text, label: text } },
                },
                models: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["modelId", "modelName", "overall", "byCheck"],
                    properties: {
                      modelId: text,
                      modelName: text,
                      overall: passRate,
                      byCheck: {
                        type: "array",
                        items: {
                          allOf: [passRate, { type: "object", required: ["checkId"], properties: { checkId: text } }],
                        },
                      },
                    },
                  },
                },
              },
            },
            { type: "null" },
          ],
        },
      },
    },
  };
}
