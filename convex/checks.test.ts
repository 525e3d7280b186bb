// @vitest-environment node
// Checks on every answer through the real pipeline: a test is refused when a check cannot run,
// each answer records which checks it failed and why as it is recorded, and the pass rates the
// results, monitor and shared page read are the answers' own counts.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { evaluateCheck } from "./lib/checks";
import { wilsonInterval } from "./lib/checkFigures";
import { backendWithUser, errorOf, sampleConfiguration, useDevGateway, waitFor } from "./test.helpers";
import type { TestBackend } from "./test.helpers";
import { SEED_PERSONAS, SEED_TOPICS } from "./finishedTests.fixture";
import type { AnswerCheck, TestConfiguration } from "./validators";

const GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
const EVALUATORS = ["google/gemini-2.0-flash-001"];
useDevGateway();

const CHECKS: AnswerCheck[] = [
  // Every answer has more than one word: all fail.
  { id: "oneWord", kind: "length", unit: "words", max: 1 },
  // No answer takes ten minutes: all pass.
  { id: "fast", kind: "latency", max: 600_000 },
  // Only the coffee topic's answers are held to this.
  { id: "coffee", kind: "contains", value: "zzz-not-there", topicId: "t1" },
];

function configuration(checks: AnswerCheck[]): TestConfiguration {
  return sampleConfiguration(GENERATORS, EVALUATORS, {
    personas: SEED_PERSONAS,
    topics: SEED_TOPICS,
    responsesPerTopic: 2,
    checks,
  });
}

const setup = () => backendWithUser([...GENERATORS, ...EVALUATORS]);

async function runToEnd(t: TestBackend, testId: Id<"tests">) {
  await waitFor(
    () => t.run(async (ctx) => (await ctx.db.get("tests", testId))!.status),
    (status) => status === "completed" || status === "failed",
  );
  await t.finishInProgressScheduledFunctions();
}

describe("a check that cannot run refuses the test under its field", () => {
  test.each([
    [{ id: "a", kind: "regex", value: "([unclosed" }, "checks.0.value", /pattern does not compile/],
    [{ id: "a", kind: "jsonSchema", value: '{"type": "obj"}' }, "checks.0.value", /schema does not compile/],
    [{ id: "a", kind: "jsonSchema", value: "{not json" }, "checks.0.value", /not valid JSON/],
    [{ id: "a", kind: "json", topicId: "elsewhere" }, "checks.0.topicId", /topic is not part of this test/],
  ] as const)("%o", async (check, field, message) => {
    const { t, user } = await setup();
    const error = await errorOf(
      user.as.mutation(api.tests.create, { configuration: configuration([check as AnswerCheck]) }),
    );
    expect(error).toMatchObject({ code: "INVALID_INPUT", field });
    expect(error.message).toMatch(message);
    expect(await t.run((ctx) => ctx.db.query("tests").take(1))).toEqual([]);
  });
});

test("each answer records its failed checks when recorded, and the pass rates count them", async () => {
  const { t, user } = await setup();
  const { testId } = await user.as.mutation(api.tests.create, { configuration: configuration(CHECKS) });
  await runToEnd(t, testId);
  const responses = await t.run((ctx) =>
    ctx.db
      .query("responses")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .collect(),
  );
  expect(responses).toHaveLength(16);
  for (const response of responses) {
    const expected = CHECKS.filter((check) => check.topicId === undefined || check.topicId === response.topicId)
      .map((check) => ({ check, outcome: evaluateCheck(check, { ...response }) }))
      .filter(({ outcome }) => !outcome.pass)
      .map(({ check, outcome }) => ({ checkId: check.id, reason: outcome.pass ? "" : outcome.reason }));
    expect(response.checkFailures).toEqual(expected);
    expect(response.failedCheck).toBe(true);
    expect(response.checkFailures?.[0].reason).toMatch(/^\d+ words, more than 1$/);
  }

  const summary = await user.as.query(api.checks.summary, { testId });
  expect(summary?.checks.map((check) => check.label)).toEqual([
    "at most 1 words",
    "latency at most 600 s",
    'contains "zzz-not-there" (topic: Coffee)',
  ]);
  for (const model of summary!.models) {
    expect(model.overall).toMatchObject({ answers: 8, passed: 0, rate: 0 });
    expect(model.overall.interval).toEqual(wilsonInterval(0, 8));
    const byCheck = Object.fromEntries(model.byCheck.map((entry) => [entry.checkId, [entry.passed, entry.answers]]));
    expect(byCheck).toEqual({ oneWord: [0, 8], fast: [8, 8], coffee: [0, 4] });
    expect(model.byPersona.map((entry) => [entry.personaId, entry.answers])).toEqual([
      ["p1", 4],
      ["p2", 4],
    ]);
  }

  const failed = await user.as.query(api.checks.failedResponses, {
    testId,
    paginationOpts: { numItems: 100, cursor: null },
  });
  expect(failed.page).toHaveLength(16);
  expect(failed.page[0].checkFailures?.length).toBeGreaterThan(0);
}, 30_000);

test("a test without checks records none and has no check figures", async () => {
  const { t, user } = await setup();
  const { testId } = await user.as.mutation(api.tests.create, { configuration: configuration([]) });
  await runToEnd(t, testId);
  expect(await user.as.query(api.checks.summary, { testId })).toBeNull();
  const failed = await user.as.query(api.checks.failedResponses, {
    testId,
    paginationOpts: { numItems: 100, cursor: null },
  });
  expect(failed.page).toEqual([]);
}, 30_000);
