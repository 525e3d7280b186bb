// The OpenAPI 3.1 description of the HTTP API that /api/v1/openapi.json serves (core/httpApi.ts).
import { API_TOKEN_LIMITS, TEST_LIMITS } from "./limits";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const testIdParameter = {
  name: "testId",
  in: "path",
  required: true,
  description: "The test's id, as returned when it was created.",
  schema: { type: "string" },
};

function errors(...statuses: number[]) {
  const texts: Record<number, string> = {
    400: "Invalid input: `error.problems` lists every problem under its field.",
    401: "Missing, unknown or revoked token.",
    403: "The token's role in its team does not allow this (viewers read only).",
    404: "No such test in the token's space.",
    409: "The test is not in a state that allows this.",
    429: "Too many requests with this token this minute; see Retry-After.",
    503: "The payment provider could not be reached.",
  };
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: texts[status], content: { "application/json": { schema: ref("Error") } } },
    ]),
  );
}

function ok(description: string, schema: unknown, status = "200") {
  return { [status]: { description, content: { "application/json": { schema } } } };
}

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "ModelJury API",
      version: "1.0.0",
      description:
        "Create, price, start and read ModelJury tests from code. Authenticate with a personal access token " +
        "made under Account Settings → API tokens: `Authorization: Bearer mj_pat_…`. A token acts in one space " +
        "(personal or one team) with the user's role there; tests of other spaces are not found. " +
        `Each token may make ${API_TOKEN_LIMITS.requestsPerMinute} requests per minute.`,
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ bearer: [] }],
    paths: {
      "/tests": {
        get: {
          summary: "List the space's tests, newest first",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
          ],
          responses: {
            ...ok("The tests", {
              type: "object",
              properties: { tests: { type: "array", items: ref("TestListItem") } },
            }),
            ...errors(400, 401, 429),
          },
        },
        post: {
          summary: "Create a test from a configuration",
          description:
            "Validated and priced exactly as the setup page's Run Test. A test nobody pays for (your own gateway " +
            "key, or a free deployment) is queued at once; otherwise it waits for payment: call start for the " +
            "checkout address.",
          requestBody: { required: true, content: { "application/json": { schema: ref("Configuration") } } },
          responses: {
            ...ok(
              "Created",
              { allOf: [ref("TestStatus"), { properties: { paymentRequired: { type: "boolean" } } }] },
              "201",
            ),
            ...errors(400, 401, 403, 429),
          },
        },
      },
      "/models": {
        get: {
          summary: "The catalog's models, with the ids a configuration names",
          responses: {
            ...ok("The models", {
              type: "object",
              properties: {
                models: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: { id: { type: "string" }, name: { type: "string" }, tier: { type: "string" } },
                  },
                },
              },
            }),
            ...errors(401, 429),
          },
        },
      },
      "/quote": {
        post: {
          summary: "Price a configuration without creating a test",
          requestBody: { required: true, content: { "application/json": { schema: ref("Configuration") } } },
          responses: { ...ok("The quote", ref("Quote")), ...errors(400, 401, 403, 429) },
        },
      },
      "/tests/{testId}": {
        get: {
          summary: "Status and progress",
          parameters: [testIdParameter],
          responses: { ...ok("The test's status", ref("TestStatus")), ...errors(401, 404, 429) },
        },
      },
      "/tests/{testId}/quote": {
        get: {
          summary: "The price quoted when the test was created",
          parameters: [testIdParameter],
          responses: { ...ok("The quote", ref("Quote")), ...errors(401, 404, 429) },
        },
      },
      "/tests/{testId}/start": {
        post: {
          summary: "Start the test",
          description:
            "200 with started: true when the test runs (or already ran) without a payment. 202 with checkoutUrl " +
            "when it waits for its payment: a person opens the address and pays; the test starts when paid. " +
            "Only the person who created a test can pay for it.",
          parameters: [testIdParameter],
          responses: {
            ...ok("Started", { allOf: [ref("TestStatus"), { properties: { started: { const: true } } }] }),
            ...ok(
              "Waiting for payment",
              {
                allOf: [
                  ref("TestStatus"),
                  { properties: { started: { const: false }, checkoutUrl: { type: "string", format: "uri" } } },
                ],
              },
              "202",
            ),
            ...errors(401, 403, 404, 409, 429, 503),
          },
        },
      },
      "/tests/{testId}/results": {
        get: {
          summary: "Rankings with intervals, jury statistics and check pass rates",
          parameters: [testIdParameter],
          responses: { ...ok("The results so far", ref("Results")), ...errors(401, 404, 429) },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "A personal access token" } },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string" },
                message: { type: "string" },
                field: { type: "string" },
                problems: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: { field: { type: "string" }, message: { type: "string" } },
                  },
                },
              },
            },
          },
        },
        Configuration: {
          type: "object",
          description:
            "The setup page's configuration. Models are gateway ids; personas and topics need no ids; evaluation " +
            "settings default to the setup page's. May also be sent as { configuration: {…} }.",
          required: ["personas", "topics", "generatorModels", "evaluatorModels"],
          properties: {
            name: { type: "string", maxLength: TEST_LIMITS.maxTestNameLength },
            userPrompt: { type: "string", maxLength: TEST_LIMITS.maxUserPromptLength },
            personas: {
              type: "array",
              maxItems: TEST_LIMITS.maxPersonas,
              items: {
                type: "object",
                required: ["name", "description", "systemPrompt"],
                properties: {
                  name: { type: "string" },
                  description: { type: "string" },
                  systemPrompt: { type: "string" },
                },
              },
            },
            topics: {
              type: "array",
              maxItems: TEST_LIMITS.maxTopics,
              items: {
                type: "object",
                required: ["title", "description", "prompt"],
                properties: { title: { type: "string" }, description: { type: "string" }, prompt: { type: "string" } },
              },
            },
            generatorModels: {
              type: "array",
              maxItems: TEST_LIMITS.maxGeneratorModels,
              items: { type: "string", examples: ["openai/gpt-4o"] },
            },
            evaluatorModels: { type: "array", maxItems: TEST_LIMITS.maxEvaluatorModels, items: { type: "string" } },
            responsesPerTopic: {
              type: "integer",
              minimum: TEST_LIMITS.minResponsesPerTopic,
              maximum: TEST_LIMITS.maxResponsesPerTopic,
              default: 2,
            },
            rankingPrompt: { type: "string", maxLength: TEST_LIMITS.maxRankingPromptLength },
            evaluationCriteria: { type: "array", items: { type: "string" }, examples: [["accuracy", "clarity"]] },
            scale: { enum: ["ranking", "rating"], default: "ranking" },
            includeExplanations: { type: "boolean", default: true },
            bothOrders: { type: "boolean" },
            checks: {
              type: "array",
              description: "Checks on every answer, as the setup page's Checks section stores them.",
              items: { type: "object" },
            },
            failedChecksRankLast: { type: "boolean" },
          },
        },
        Quote: {
          type: "object",
          properties: {
            priceCents: { type: "integer" },
            paymentRequired: { type: "boolean" },
            usesOwnKey: { type: "boolean" },
            estimate: {
              type: "object",
              properties: {
                generationCost: { type: "number" },
                evaluationCost: { type: "number" },
                totalCost: { type: "number" },
                totalQueries: { type: "integer" },
                estimatedTokens: { type: "integer" },
              },
            },
          },
        },
        TestStatus: {
          type: "object",
          properties: {
            testId: { type: "string" },
            name: { type: "string" },
            status: { enum: ["pending", "running", "completed", "failed", "cancelled"] },
            awaitingPayment: { type: "boolean" },
            progress: {
              type: "object",
              properties: {
                phase: { type: "string" },
                percentage: { type: "number" },
                estimatedTimeRemaining: { type: "string" },
              },
            },
            responses: { type: "object", properties: { done: {}, expected: {}, missing: {} } },
            evaluations: { type: "object", properties: { done: {}, expected: {}, missing: {} } },
            priceCents: { type: "integer" },
            chargedCents: { type: "integer", description: "What the user was charged (0 on their own key)." },
            usesOwnKey: { type: "boolean" },
            gatewayCostUsd: { type: "number", description: "What the model calls cost at the gateway." },
            createdAt: { type: "number" },
            startedAt: { type: "number" },
            completedAt: { type: "number" },
            error: { type: "string" },
          },
        },
        TestListItem: {
          type: "object",
          properties: {
            testId: { type: "string" },
            name: { type: "string" },
            status: { type: "string" },
            createdAt: { type: "number" },
            priceCents: { type: "integer" },
            gatewayCostUsd: { type: "number" },
            topPerformers: { type: "array", items: { type: "string" } },
          },
        },
        Results: {
          type: "object",
          properties: {
            test: ref("TestStatus"),
            metrics: { type: "object" },
            rankings: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  modelId: { type: "string" },
                  modelName: { type: "string" },
                  averageScore: { type: "number", description: "0-10" },
                  meanScore: { type: ["number", "null"] },
                  scoreInterval: { type: ["object", "null"], properties: { low: {}, high: {} } },
                  rank: {
                    type: ["object", "null"],
                    description: "Best and worst rank the 95% intervals allow; best 1 is the top tie group.",
                    properties: { best: { type: "integer" }, worst: { type: "integer" } },
                  },
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
            jury: { type: ["object", "null"], description: "The jury statistics of the results page." },
            checks: { type: ["object", "null"], description: "Check pass rates per model; null without checks." },
          },
        },
      },
    },
  };
}
