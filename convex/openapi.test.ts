// @vitest-environment node
// The OpenAPI document /api/v1/openapi.json serves: valid OpenAPI 3.1 by an OpenAPI schema
// validator (@seriousme/openapi-schema-validator, the official schemas), every operation with an
// operationId, and real responses of every endpoint (successes and errors) fitting the schema it
// documents for their status.
import { Validator as JsonSchema, type Schema } from "@cfworker/json-schema";
import { Validator as OpenApiValidator } from "@seriousme/openapi-schema-validator";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { backendWithUser, type TestBackend } from "./test.helpers";

const MODELS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"];

const CONFIGURATION = {
  name: "Coffee taglines",
  personas: [{ name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." }],
  topics: [{ title: "Coffee", description: "A coffee shop", prompt: "We sell cold brew coffee." }],
  generatorModels: [MODELS[0], MODELS[1]],
  evaluatorModels: [MODELS[2]],
  responsesPerTopic: 1,
  checks: [
    { id: "c1", kind: "contains", value: "coffee", caseSensitive: false },
    { id: "c2", kind: "length", unit: "words", max: 40 },
  ],
};

type Document = {
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, ResponseSpec> }>>;
  components: Record<string, unknown>;
};
type ResponseSpec = { content?: { "application/json"?: { schema: Schema } } };

async function documentOf(t: TestBackend): Promise<Document> {
  return (await (await t.fetch("/api/v1/openapi.json")).json()) as Document;
}

/** The schema the document gives a path's method and status, resolvable against its components. */
function schemaFor(document: Document, path: string, method: string, status: number): Schema {
  const response = document.paths[path]?.[method]?.responses[String(status)];
  const schema = response?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`${method.toUpperCase()} ${path} documents no ${status}`);
  return { ...schema, components: document.components } as Schema;
}

function conforms(document: Document, path: string, method: string, status: number, body: unknown): string[] {
  const result = new JsonSchema(schemaFor(document, path, method, status), "2020-12", false).validate(body);
  return result.errors.map((error) => `${error.instanceLocation}: ${error.error}`);
}

describe("the OpenAPI document", () => {
  test("is valid OpenAPI 3.1, every operation has its own operationId, and checks are typed kind by kind", async () => {
    const { t } = await backendWithUser(MODELS, { holdQueue: true });
    const document = await documentOf(t);
    const validator = new OpenApiValidator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === "string")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const check = { ...(document.components.schemas as Record<string, Schema>).Check, components: document.components };
    const checkErrors = (value: unknown) => new JsonSchema(check as Schema, "2020-12", false).validate(value).valid;
    expect(checkErrors({ id: "c1", kind: "contains", value: "x" })).toBe(true);
    expect(checkErrors({ kind: "contains", value: "x" })).toBe(false);
    expect(checkErrors({ id: "c1", kind: "equals", value: "x" })).toBe(false);
    expect(checkErrors({ id: "c1", kind: "latency" })).toBe(false);
    // Stop when settled: the question and its confidence, typed.
    const settle = {
      ...(document.components.schemas as Record<string, Schema>).StopWhenSettled,
      components: document.components,
    };
    const settleValid = (value: unknown) => new JsonSchema(settle as Schema, "2020-12", false).validate(value).valid;
    expect(settleValid({ question: "best", confidence: 0.95 })).toBe(true);
    expect(settleValid({ question: "withinDelta", modelId: MODELS[0], delta: 0.5 })).toBe(true);
    expect(settleValid({ question: "soonest" })).toBe(false);
    expect(settleValid({ question: "best", confidence: 1.5 })).toBe(false);
    // 413 is documented where a body is taken.
    expect(Object.keys(document.paths["/tests"].post.responses)).toContain("413");
  });

  test("real responses of every endpoint, successes and errors, fit the schemas it documents", async () => {
    const { t, user } = await backendWithUser(MODELS, { holdQueue: true });
    await t.run((ctx) =>
      ctx.db.insert("apiKeys", { userId: user.userId, ciphertext: "x", iv: "x", last4: "abcd", savedAt: Date.now() }),
    );
    const { token } = await user.as.action(api.apiTokens.create, { name: "CI" });
    const document = await documentOf(t);
    const seen: string[] = [];
    const call = async (method: string, path: string, route: string, body?: unknown, auth = true) => {
      const response = await t.fetch(`/api/v1${path}`, {
        method,
        headers: { ...(auth ? { Authorization: `Bearer ${token}` } : {}), "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      });
      const json = (await response.json()) as Record<string, unknown>;
      const documentedMethod = document.paths[route][method.toLowerCase()] ? method.toLowerCase() : "get";
      expect(conforms(document, route, documentedMethod, response.status, json), `${method} ${path}`).toEqual([]);
      seen.push(`${method} ${route} ${response.status}`);
      return json;
    };

    expect(conforms(document, "/tests", "post", 201, {})).not.toEqual([]);
    await call("GET", "/models", "/models");
    await call("POST", "/quote", "/quote", CONFIGURATION);
    const created = await call("POST", "/tests", "/tests", {
      configuration: { ...CONFIGURATION, stopWhenSettled: { question: "best", confidence: 0.95 } },
    });
    const testId = created.testId as Id<"tests">;
    await call("GET", "/tests", "/tests");
    await call("GET", `/tests/${testId}`, "/tests/{testId}");
    await call("GET", `/tests/${testId}/quote`, "/tests/{testId}/quote");
    await call("POST", `/tests/${testId}/start`, "/tests/{testId}/start");
    const results = await call("GET", `/tests/${testId}/results`, "/tests/{testId}/results");
    expect(results.checks).not.toBeNull();

    // Errors.
    await call("POST", "/tests", "/tests", { ...CONFIGURATION, checks: [{ kind: "equals" }] });
    await call("POST", "/tests", "/tests", "{not json");
    await call("GET", "/tests?limit=0", "/tests");
    await call("GET", "/models", "/models", undefined, false);
    await call("GET", "/tests/nope", "/tests/{testId}");
    await call("GET", "/tests/%E0%A4%A", "/tests/{testId}");
    await call("DELETE", "/tests", "/tests");
    await call("POST", "/quote", "/quote", { ...CONFIGURATION, userPrompt: "x".repeat(600 * 1024) });
    expect(seen).toEqual([
      "GET /models 200",
      "POST /quote 200",
      "POST /tests 201",
      "GET /tests 200",
      "GET /tests/{testId} 200",
      "GET /tests/{testId}/quote 200",
      "POST /tests/{testId}/start 200",
      "GET /tests/{testId}/results 200",
      "POST /tests 400",
      "POST /tests 400",
      "GET /tests 400",
      "GET /models 401",
      "GET /tests/{testId} 404",
      "GET /tests/{testId} 400",
      "DELETE /tests 405",
      "POST /quote 413",
    ]);
  });
});
