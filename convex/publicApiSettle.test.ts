// @vitest-environment node
// GET /api/v1/tests/{id}/results of a test that stopped when settled (issue 35): the results say
// why it stopped, in the results page's words and in the documented shape; a test without the
// setting says null; another space's token reads nothing.
import { Validator as JsonSchema, type Schema } from "@cfworker/json-schema";
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { seedFinishedTest } from "./finishedTests.fixture";
import { createBackend, createUser, markSettled, type TestBackend } from "./test.helpers";

function get(t: TestBackend, token: string, path: string) {
  return t.fetch(`/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
}

describe("the API's results of a settled test", () => {
  test("say why it stopped, in the documented shape; a plain test's say null; another space reads nothing", async () => {
    const t = createBackend();
    const owner = await createUser(t, "api.settle@example.com");
    const stranger = await createUser(t, "api.stranger@example.com");
    const settled = await seedFinishedTest(t, { userId: owner.userId, responses: 4, name: "Settled" });
    const plain = await seedFinishedTest(t, { userId: owner.userId, responses: 4, name: "Plain" });
    await markSettled(t, settled);
    const { token } = await owner.as.action(api.apiTokens.create, { name: "CI" });

    const response = await get(t, token, `/tests/${settled}/results`);
    expect(response.status).toBe(200);
    const results = (await response.json()) as { settle: unknown };
    expect(results.settle).toMatchObject({
      question: "Which model is best?",
      stopped: { reason: "settled", pairsDone: 38, pairsTotal: 100 },
      settledAfter: "Settled after 38 of 100 pairs",
      stoppedReason:
        "Settled after 38 of 100 pairs: the question was settled, so the calls of the other 62 pairs were not made.",
    });
    const document = (await (await t.fetch("/api/v1/openapi.json")).json()) as { components: Record<string, unknown> };
    const schema = { $ref: "#/components/schemas/Results", components: document.components } as Schema;
    expect(new JsonSchema(schema, "2020-12", false).validate(results).errors).toEqual([]);
    expect(new JsonSchema(schema, "2020-12", false).validate({ ...results, settle: { question: 1 } }).valid).toBe(
      false,
    );

    const plainResults = (await (await get(t, token, `/tests/${plain}/results`)).json()) as { settle: unknown };
    expect(plainResults.settle).toBeNull();

    const { token: strangerToken } = await stranger.as.action(api.apiTokens.create, { name: "CI" });
    const refused = await get(t, strangerToken, `/tests/${settled}/results`);
    expect(refused.status).toBe(404);
    expect(JSON.stringify(await refused.json())).not.toContain("Settled after");
  });
});
