// The operations of the HTTP API (lib/openapi.ts): each path, its parameters, and its answers by status.
import { API_TOKEN_LIMITS } from "./limits";
import { ref, text } from "./openapiSchemas";

const testIdParameter = {
  name: "testId",
  in: "path",
  required: true,
  description: "The test's id, as returned when it was created.",
  schema: { type: "string" },
};

const ERROR_TEXTS: Record<number, string> = {
  400: "Invalid input: `error.problems` names every wrong field by its path in the request body (`checks[0].kind`).",
  401: "Missing, unknown or revoked token.",
  403: "The token's role in its team does not allow this (viewers read only).",
  404: "No such test in the token's space (or no such endpoint).",
  405: "The path does not take this method; the Allow header lists those it takes.",
  409: "The test is not in a state that allows this.",
  413: `The request body is over ${512} KiB.`,
  429: `Over ${API_TOKEN_LIMITS.requestsPerMinute} requests with this token in the last 60 seconds; see Retry-After.`,
  503: "The payment provider could not be reached.",
};

function errors(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: ERROR_TEXTS[status],
        ...(status === 405
          ? { headers: { Allow: { description: "The methods the path takes.", schema: { type: "string" } } } }
          : {}),
        ...(status === 429
          ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } } }
          : {}),
        content: { "application/json": { schema: ref("Error") } },
      },
    ]),
  );
}

function ok(description: string, schema: unknown, status = "200") {
  return { [status]: { description, content: { "application/json": { schema } } } };
}

/** Every operation of the API by path. */
export function openApiPaths() {
  return {
    "/openapi.json": {
      get: {
        operationId: "getOpenApiDocument",
        summary: "This document",
        security: [],
        responses: { ...ok("The OpenAPI document", { type: "object" }), ...errors(405) },
      },
    },
    "/tests": {
      get: {
        operationId: "listTests",
        summary: "List the space's tests, newest first",
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
        ],
        responses: {
          ...ok("The tests", {
            type: "object",
            required: ["tests"],
            properties: { tests: { type: "array", items: ref("TestListItem") } },
          }),
          ...errors(400, 401, 405, 429),
        },
      },
      post: {
        operationId: "createTest",
        summary: "Create a test from a configuration",
        description:
          "Validated and priced exactly as the setup page's Run Test. A test nobody pays for (your own gateway " +
          "key, or a free deployment) is queued at once; otherwise it waits for payment: call start for the " +
          "checkout address.",
        requestBody: { required: true, content: { "application/json": { schema: ref("ConfigurationRequest") } } },
        responses: {
          ...ok(
            "Created",
            {
              allOf: [
                ref("TestStatus"),
                {
                  type: "object",
                  required: ["paymentRequired"],
                  properties: { paymentRequired: { type: "boolean" } },
                },
              ],
            },
            "201",
          ),
          ...errors(400, 401, 403, 405, 413, 429),
        },
      },
    },
    "/models": {
      get: {
        operationId: "listModels",
        summary: "The catalog's models, with the ids a configuration names",
        responses: {
          ...ok("The models", {
            type: "object",
            required: ["models"],
            properties: {
              models: {
                type: "array",
                items: {
                  type: "object",
                  required: ["id", "name", "tier"],
                  properties: { id: text, name: text, tier: text },
                },
              },
            },
          }),
          ...errors(401, 405, 429),
        },
      },
    },
    "/quote": {
      post: {
        operationId: "quoteConfiguration",
        summary: "Price a configuration without creating a test",
        requestBody: { required: true, content: { "application/json": { schema: ref("ConfigurationRequest") } } },
        responses: { ...ok("The quote", ref("Quote")), ...errors(400, 401, 403, 405, 413, 429) },
      },
    },
    "/tests/{testId}": {
      get: {
        operationId: "getTest",
        summary: "Status and progress",
        description: "`final` is true once the test ended and its figures (ranks, intervals) will not change.",
        parameters: [testIdParameter],
        responses: { ...ok("The test's status", ref("TestStatus")), ...errors(400, 401, 404, 405, 429) },
      },
    },
    "/tests/{testId}/quote": {
      get: {
        operationId: "getTestQuote",
        summary: "The price quoted when the test was created",
        parameters: [testIdParameter],
        responses: { ...ok("The quote", ref("StoredQuote")), ...errors(400, 401, 404, 405, 429) },
      },
    },
    "/tests/{testId}/start": {
      post: {
        operationId: "startTest",
        summary: "Start the test",
        description:
          "200 with started: true when the test runs (or already ran) without a payment. 202 with checkoutUrl " +
          "when it waits for its payment: a person opens the address and pays; the test starts when paid. " +
          "Only the person who created a test can pay for it.",
        parameters: [testIdParameter],
        responses: {
          ...ok("Started", {
            allOf: [
              ref("TestStatus"),
              { type: "object", required: ["started"], properties: { started: { const: true } } },
            ],
          }),
          ...ok(
            "Waiting for payment",
            {
              allOf: [
                ref("TestStatus"),
                {
                  type: "object",
                  required: ["started", "checkoutUrl"],
                  properties: { started: { const: false }, checkoutUrl: { type: "string", format: "uri" } },
                },
              ],
            },
            "202",
          ),
          ...errors(400, 401, 403, 404, 405, 409, 429, 503),
        },
      },
    },
    "/tests/{testId}/results": {
      get: {
        operationId: "getTestResults",
        summary: "Rankings with intervals, jury statistics and check pass rates",
        description: "Read them once `final` is true: until then ranks may be missing or move.",
        parameters: [testIdParameter],
        responses: { ...ok("The results so far", ref("Results")), ...errors(400, 401, 404, 405, 429) },
      },
    },
  };
}
