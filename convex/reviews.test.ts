// Blind human review through the real functions: what a reviewer is shown (and never shown), what
// they may send, who may send it, and how the team's verdicts become the team's ranking and each
// judge's agreement with the team.
import type { FunctionArgs } from "convex/server";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { rankingScore } from "./lib/scoring";
import { EMPTY_RUN_COUNTERS } from "./core/pipeline/runCounters";
import { createBackend, createUser, sampleConfiguration, type TestBackend, refusalOf } from "./test.helpers";
import type { TestConfiguration } from "./validators";

type Caller = Awaited<ReturnType<typeof createUser>>["as"];

const MODELS = [
  { id: "openai/gpt-4o-mini", name: "GPT-4o Mini" },
  { id: "anthropic/claude-3.5-haiku", name: "Claude 3.5 Haiku" },
  { id: "mistralai/mistral-small", name: "Mistral Small" },
];
const JUDGES = [
  { id: "google/gemini-2.0-flash-001", name: "Gemini 2.0 Flash" },
  { id: "deepseek/deepseek-chat", name: "DeepSeek V3" },
];

function reviewConfiguration(overrides: Partial<TestConfiguration> = {}): TestConfiguration {
  return {
    ...sampleConfiguration(
      MODELS.map((model) => model.id),
      JUDGES.map((judge) => judge.id),
    ),
    generatorModels: MODELS,
    evaluatorModels: JUDGES,
    personas: [{ id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." }],
    topics: [
      { id: "t1", title: "Coffee", description: "A coffee shop", prompt: "We sell cold brew coffee." },
      { id: "t2", title: "Bikes", description: "Bike repair", prompt: "We repair city bikes." },
      { id: "t3", title: "Books", description: "A bookshop", prompt: "We sell used books." },
    ],
    responsesPerTopic: 1,
    ...overrides,
  };
}

/**
 * A test as the pipeline leaves it: for the pairs in `answered`, one answer per model and each
 * judge's ranking call over them with its evaluations (judge j's order given by `judgeOrders`,
 * model indexes best first). Pairs not listed are still generating: no answers, no judge calls.
 */
async function seedTest(
  t: TestBackend,
  userId: Id<"users">,
  options: {
    teamId?: Id<"teams">;
    configuration?: TestConfiguration;
    answered: { personaId: string; topicId: string; judgeOrders?: number[][] }[];
  },
): Promise<{ testId: Id<"tests">; responses: Record<string, Id<"responses">[]> }> {
  const configuration = options.configuration ?? reviewConfiguration();
  return await t.run(async (ctx: MutationCtx) => {
    const testId = await ctx.db.insert("tests", {
      userId,
      ...(options.teamId ? { teamId: options.teamId } : {}),
      name: configuration.name,
      taskType: configuration.taskType,
      configuration,
      status: "running",
      progress: { currentPhase: "Evaluating", percentage: 80 },
      estimate: { generationCost: 0.01, evaluationCost: 0.02, totalCost: 0.03, totalQueries: 10, estimatedTokens: 1 },
      priceCents: 200,
      usesOwnKey: false,
      expectedResponses: 9,
      expectedEvaluations: 18,
      ...EMPTY_RUN_COUNTERS,
      lastProgressAt: Date.now(),
    });
    const responses: Record<string, Id<"responses">[]> = {};
    for (const pair of options.answered) {
      const ids: Id<"responses">[] = [];
      for (const model of configuration.generatorModels) {
        ids.push(
          await ctx.db.insert("responses", {
            testId,
            modelId: model.id,
            personaId: pair.personaId,
            topicId: pair.topicId,
            content: `${model.name} on ${pair.topicId}: a tagline.`,
            promptTokens: 10,
            completionTokens: 10,
            tokens: 20,
            latencyMs: 500,
            costUsd: 0.0001,
            scoreSum: 0,
            scoreCount: 0,
          }),
        );
      }
      responses[`${pair.personaId}|${pair.topicId}`] = ids;
      for (const [j, judge] of configuration.evaluatorModels.entries()) {
        const callId = await ctx.db.insert("calls", {
          testId,
          kind: "evaluate",
          key: `${testId}:rank:${judge.id}:${pair.personaId}:${pair.topicId}`,
          status: pair.judgeOrders?.[j] ? "succeeded" : "pending",
          attempts: 1,
          modelId: judge.id,
          personaId: pair.personaId,
          topicId: pair.topicId,
          responseIds: ids,
        });
        const order = pair.judgeOrders?.[j];
        if (!order) continue;
        for (const [rank, m] of order.entries()) {
          await ctx.db.insert("evaluations", {
            testId,
            responseId: ids[m]!,
            evaluatorModelId: judge.id,
            scores: { overall: rankingScore(rank, order.length) },
            explanation: "",
            rank: rank + 1,
            costUsd: 0.0001,
            callId,
          });
        }
      }
    }
    return { testId, responses };
  });
}

const judgementsOf = (t: TestBackend, testId: Id<"tests">) =>
  t.run((ctx) =>
    ctx.db
      .query("humanJudgements")
      .withIndex("by_test_user", (q) => q.eq("testId", testId))
      .collect(),
  );

describe("reviews.pair: blind", () => {
  test("shows the first ready pair under labels, with no model name, model id or response id anywhere", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const { testId, responses } = await seedTest(t, owner.userId, {
      answered: [
        { personaId: "p1", topicId: "t1" },
        { personaId: "p1", topicId: "t2" },
      ],
    });
    const view = await owner.as.query(api.reviews.pair, { testId });
    expect(view).not.toBeNull();
    expect(view!.pairs.map((pair) => [pair.topicName, pair.answers, pair.reviewed])).toEqual([
      ["Coffee", 3, false],
      ["Bikes", 3, false],
      ["Books", 0, false],
    ]);
    expect(view!.canReview).toBe(true);
    expect(view!.current?.topicName).toBe("Coffee");
    expect(view!.current?.answers.map((answer) => answer.label)).toEqual(["A", "B", "C"]);
    const text = JSON.stringify(view);
    const secrets = [
      ...MODELS.flatMap((model) => [model.id, model.name]),
      ...Object.values(responses).flat(),
      ...JUDGES.flatMap((judge) => [judge.id, judge.name]),
    ];
    // Contents carry no model name here; the ids and names must not appear anywhere else.
    const leaked = secrets.filter((secret) => text.replaceAll(/"content":"[^"]*"/g, "").includes(secret));
    expect(leaked).toEqual([]);
  });
});

describe("reviews.submit", () => {
  test("stores a ranking by label and shows it back; the next pair comes up", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const { testId } = await seedTest(t, owner.userId, {
      answered: [
        { personaId: "p1", topicId: "t1" },
        { personaId: "p1", topicId: "t2" },
      ],
    });
    await owner.as.mutation(api.reviews.submit, { testId, personaId: "p1", topicId: "t1", ranking: ["C", "A", "B"] });
    const again = await owner.as.query(api.reviews.pair, { testId, personaId: "p1", topicId: "t1" });
    expect(again!.current!.verdict).toEqual({ ranking: ["C", "A", "B"] });
    const next = await owner.as.query(api.reviews.pair, { testId });
    expect(next!.current!.topicName).toBe("Bikes");
    expect(next!.pairs.map((pair) => pair.reviewed)).toEqual([true, false, false]);
  });
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A team with an owner, a member, a viewer and a removed member, and a test the member started in it. */
async function teamWithTest(t: TestBackend, answered: Parameters<typeof seedTest>[2]["answered"]) {
  const owner = await createUser(t, "ada.lovelace@example.com", { fullName: "Ada Lovelace" });
  const member = await createUser(t, "grace@example.com", { fullName: "Grace Hopper" });
  const viewer = await createUser(t, "viewer@example.com");
  const removed = await createUser(t, "removed@example.com");
  const { teamId } = await owner.as.mutation(api.teams.create, { name: "Team" });
  const removedMembership = await t.run(async (ctx) => {
    await ctx.db.insert("memberships", { teamId, userId: member.userId, role: "member" });
    await ctx.db.insert("memberships", { teamId, userId: viewer.userId, role: "viewer" });
    return await ctx.db.insert("memberships", { teamId, userId: removed.userId, role: "member" });
  });
  const seeded = await seedTest(t, member.userId, { teamId, answered });
  return { owner, member, viewer, removed, removedMembership, teamId, ...seeded };
}

/** The labels a reviewer sees for the given models, best first, read from the answers shown (as a person would). */
async function labelsFor(as: Caller, testId: Id<"tests">, topicId: string, order: number[]): Promise<string[]> {
  const view = await as.query(api.reviews.pair, { testId, personaId: "p1", topicId });
  const answers = view!.current!.answers;
  return order.map((m) => answers.find((answer) => answer.content.startsWith(`${MODELS[m]!.name} on`))!.label);
}

async function settle(t: TestBackend) {
  await t.finishAllScheduledFunctions(vi.runAllTimers);
}

describe("reviews.pair: the order", () => {
  test("is the same on every read and differs between two reviewers", async () => {
    const t = createBackend();
    const { owner, member, testId } = await teamWithTest(t, [
      { personaId: "p1", topicId: "t1" },
      { personaId: "p1", topicId: "t2" },
    ]);
    const orderOf = async (as: Caller, topicId: string) =>
      (await as.query(api.reviews.pair, { testId, personaId: "p1", topicId }))!.current!.answers.map(
        (answer) => answer.content,
      );
    const ownerOrders = [await orderOf(owner.as, "t1"), await orderOf(owner.as, "t2")];
    expect([await orderOf(owner.as, "t1"), await orderOf(owner.as, "t2")]).toEqual(ownerOrders);
    const memberOrders = [await orderOf(member.as, "t1"), await orderOf(member.as, "t2")];
    expect(memberOrders).not.toEqual(ownerOrders);
    // Both see the same answers, only in another order.
    expect(memberOrders.map((order) => [...order].sort())).toEqual(ownerOrders.map((order) => [...order].sort()));
  });
});

describe("reviews.submit: refusals change nothing", () => {
  test("labels that are not exactly the pair's, a wrong scale or a pair not ready are refused with a sentence", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const { testId } = await seedTest(t, owner.userId, { answered: [{ personaId: "p1", topicId: "t1" }] });
    const base = { testId, personaId: "p1", topicId: "t1" };
    const refusals: [FunctionArgs<typeof api.reviews.submit>, string][] = [
      [{ ...base, ranking: ["A", "B"] }, "Rank every answer exactly once: A, B, C."],
      [{ ...base, ranking: ["A", "A", "B"] }, "Rank every answer exactly once: A, B, C."],
      [{ ...base, ranking: ["A", "B", "D"] }, "Rank every answer exactly once: A, B, C."],
      [
        { ...base, scores: { A: { accuracy: 5 } } },
        "This test uses the ranking scale: rank the answers from best to worst.",
      ],
      [{ ...base, topicId: "t2", ranking: ["A", "B", "C"] }, "This pair has no answers to review yet."],
      [{ ...base, topicId: "t9", ranking: ["A", "B", "C"] }, "This persona and topic are not part of the test."],
    ];
    for (const [args, message] of refusals) {
      expect(await refusalOf(owner.as.mutation(api.reviews.submit, args))).toEqual({ code: "INVALID_INPUT", message });
    }
    expect(await judgementsOf(t, testId)).toEqual([]);
    // No recomputation was asked for either.
    const statsRows = await t.run((ctx) => ctx.db.query("testStats").collect());
    expect(statsRows).toEqual([]);
  });

  test("rating: every label on every criterion, whole numbers from 1 to 10", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const configuration = reviewConfiguration({
      evaluationCriteria: { accuracy: true, creativity: false, clarity: true, relevance: false, style: false },
      scoringParameters: { scale: "rating", includeExplanations: true },
    });
    const { testId } = await seedTest(t, owner.userId, {
      configuration,
      answered: [{ personaId: "p1", topicId: "t1" }],
    });
    const view = await owner.as.query(api.reviews.pair, { testId });
    expect(view!.scale).toBe("rating");
    expect(view!.criteria).toEqual(["accuracy", "clarity"]);
    const good = { accuracy: 7, clarity: 8 };
    const base = { testId, personaId: "p1", topicId: "t1" };
    const refusals: [FunctionArgs<typeof api.reviews.submit>, string][] = [
      [{ ...base, scores: { A: good, B: good } }, "Score every answer: A, B, C."],
      [
        { ...base, scores: { A: good, B: good, C: { accuracy: 7 } } },
        "Score answer C on every criterion: accuracy, clarity.",
      ],
      [
        { ...base, scores: { A: good, B: good, C: { accuracy: 7, clarity: 11 } } },
        "Scores are whole numbers from 1 to 10 (answer C, clarity).",
      ],
      [
        { ...base, scores: { A: { accuracy: 6.5, clarity: 2 }, B: good, C: good } },
        "Scores are whole numbers from 1 to 10 (answer A, accuracy).",
      ],
      [{ ...base, ranking: ["A", "B", "C"] }, "This test uses the rating scale: score every answer on each criterion."],
    ];
    for (const [args, message] of refusals) {
      expect(await refusalOf(owner.as.mutation(api.reviews.submit, args))).toEqual({ code: "INVALID_INPUT", message });
    }
    expect(await judgementsOf(t, testId)).toEqual([]);
    await owner.as.mutation(api.reviews.submit, {
      ...base,
      scores: { A: good, B: { accuracy: 3, clarity: 4 }, C: good },
    });
    const again = await owner.as.query(api.reviews.pair, { testId, personaId: "p1", topicId: "t1" });
    expect(again!.current!.verdict).toEqual({ scores: { A: good, B: { accuracy: 3, clarity: 4 }, C: good } });
  });
});

describe("reviews: who may review", () => {
  test("a viewer reads the pair but cannot submit; a removed member is refused at once", async () => {
    const t = createBackend();
    const { viewer, member, removed, removedMembership, testId } = await teamWithTest(t, [
      { personaId: "p1", topicId: "t1" },
    ]);
    const view = await viewer.as.query(api.reviews.pair, { testId });
    expect(view!.canReview).toBe(false);
    expect(view!.current!.answers).toHaveLength(3);
    const args = { testId, personaId: "p1", topicId: "t1", ranking: ["A", "B", "C"] };
    expect((await refusalOf(viewer.as.mutation(api.reviews.submit, args)))?.code).toBe("FORBIDDEN");
    // The removed member could review a moment ago…
    await removed.as.mutation(api.reviews.submit, args);
    expect((await removed.as.query(api.reviews.pair, { testId }))!.canReview).toBe(true);
    await t.run((ctx) => ctx.db.delete("memberships", removedMembership));
    // …and is refused on the very next call.
    expect((await refusalOf(removed.as.query(api.reviews.pair, { testId })))?.code).toBe("NOT_FOUND");
    expect((await refusalOf(removed.as.mutation(api.reviews.submit, args)))?.code).toBe("NOT_FOUND");
    expect((await refusalOf(removed.as.query(api.reviews.summary, { testId })))?.code).toBe("NOT_FOUND");
    expect((await member.as.query(api.reviews.pair, { testId }))!.canReview).toBe(true);
  });
});

describe("reviews.summary: the team beside the jury", () => {
  /** The hand-worked case of lib/stats/human.test.ts: models X, Y, Z = MODELS[0..2], judges J1, J2. */
  const answered = [
    {
      personaId: "p1",
      topicId: "t1",
      judgeOrders: [
        [0, 1, 2],
        [2, 1, 0],
      ],
    },
    {
      personaId: "p1",
      topicId: "t2",
      judgeOrders: [
        [0, 1, 2],
        [0, 2, 1],
      ],
    },
  ];

  test("two reviewers' verdicts give the team's ranking, their agreement and each judge's tau, as worked by hand", async () => {
    const t = createBackend();
    const { owner, member, testId } = await teamWithTest(t, answered);
    const before = await owner.as.query(api.reviews.summary, { testId });
    expect(before!.models.map((model) => model.meanScore)).toEqual([null, null, null]);
    expect(before!.totalPairs).toBe(3);

    const rank = async (as: Caller, topicId: string, order: number[]) =>
      await as.mutation(api.reviews.submit, {
        testId,
        personaId: "p1",
        topicId,
        ranking: await labelsFor(as, testId, topicId, order),
      });
    await rank(owner.as, "t1", [0, 1, 2]);
    await rank(member.as, "t1", [0, 2, 1]);
    await rank(owner.as, "t2", [1, 0, 2]);
    await rank(member.as, "t2", [0, 1, 2]);
    await settle(t);

    const summary = (await owner.as.query(api.reviews.summary, { testId }))!;
    expect(summary.reviewers).toEqual([
      { initials: "AL", pairs: 2, isYou: true },
      { initials: "GH", pairs: 2, isYou: false },
    ]);
    expect(summary.pairsReviewed).toBe(2);
    expect(summary.totalPairs).toBe(3);
    expect(summary.models.map((model) => model.modelName)).toEqual(MODELS.map((model) => model.name));
    const means = summary.models.map((model) => model.meanScore!);
    expect(means[0]).toBeCloseTo(55 / 6, 10);
    expect(means[1]).toBeCloseTo(20 / 3, 10);
    expect(means[2]).toBeCloseTo(25 / 6, 10);
    // Two pairs reviewed are too little evidence for an interval (issue 30: at least 4 pairs), so
    // the team's figures give no rank range; the means above are still the team's scores.
    expect(summary.models.map((model) => model.rank)).toEqual([null, null, null]);
    expect(summary.reviewerAgreement).toEqual({
      method: "kendall-w",
      value: 0.75,
      band: "strong",
      label: "Strong agreement",
      units: 2,
    });
    expect(summary.judges.map((judge) => [judge.judgeName, judge.units])).toEqual([
      ["Gemini 2.0 Flash", 2],
      ["DeepSeek V3", 2],
    ]);
    expect(summary.judges[0]!.tau).toBeCloseTo(4 / Math.sqrt(24), 10);
    expect(summary.judges[1]!.tau).toBeCloseTo(-2 / Math.sqrt(24), 10);
    // Two pairs: no interval for the judge's tau either (issue 30).
    expect(summary.judges.map((judge) => judge.interval)).toEqual([null, null]);
    // The member sees the same figures, with themself marked.
    const theirs = (await member.as.query(api.reviews.summary, { testId }))!;
    expect(theirs.reviewers.map((reviewer) => reviewer.isYou)).toEqual([false, true]);
    expect(theirs.judges).toEqual(summary.judges);
  });

  test("judge results that arrive after the reviews refresh the judges' agreement with the team", async () => {
    const t = createBackend();
    const { owner, testId } = await teamWithTest(t, [
      answered[0]!,
      { personaId: "p1", topicId: "t2", judgeOrders: [[0, 1, 2]] }, // J2's call on t2 still pending
    ]);
    for (const topicId of ["t1", "t2"]) {
      const ranking = await labelsFor(owner.as, testId, topicId, [0, 1, 2]);
      await owner.as.mutation(api.reviews.submit, { testId, personaId: "p1", topicId, ranking });
    }
    await settle(t);
    const before = (await owner.as.query(api.reviews.summary, { testId }))!;
    const deepseek = () => before.judges.find((judge) => judge.judgeName === "DeepSeek V3")!;
    // J2 on t1 only: Z Y X against the owner's X Y Z: every pair discordant.
    expect([deepseek().tau, deepseek().units]).toEqual([-1, 1]);

    // J2's ranking of t2 (X Z Y) arrives through the runner, which asks for the statistics again.
    await t.run(async (ctx) => {
      const call = (await ctx.db
        .query("calls")
        .withIndex("by_key", (q) => q.eq("key", `${testId}:rank:deepseek/deepseek-chat:p1:t2`))
        .unique())!;
      await ctx.db.patch("calls", call._id, {
        status: "leased",
        leaseId: "lease",
        leaseExpiresAt: Date.now() + 60_000,
      });
    });
    const ids = await t.run(async (ctx) =>
      (
        await ctx.db
          .query("responses")
          .withIndex("by_test_pair", (q) => q.eq("testId", testId).eq("personaId", "p1").eq("topicId", "t2"))
          .collect()
      ).map((response) => response._id),
    );
    const callId = await t.run(
      async (ctx) =>
        (await ctx.db
          .query("calls")
          .withIndex("by_key", (q) => q.eq("key", `${testId}:rank:deepseek/deepseek-chat:p1:t2`))
          .unique())!._id,
    );
    await t.mutation(internal.runner.record, {
      callId,
      leaseId: "lease",
      outcome: {
        kind: "ranked",
        ranking: [ids[0]!, ids[2]!, ids[1]!],
        explanation: "",
        promptTokens: 1,
        completionTokens: 1,
        latencyMs: 1,
        costUsd: 0,
      },
    });
    await settle(t);
    const after = (await owner.as.query(api.reviews.summary, { testId }))!;
    const refreshed = after.judges.find((judge) => judge.judgeName === "DeepSeek V3")!;
    // Now t2 too: X Z Y against X Y Z: XY C, XZ C, YZ D; pooled with t1's D 3: C 2, D 4 → −2/6.
    expect(refreshed.units).toBe(2);
    expect(refreshed.tau).toBeCloseTo(-2 / 6, 10);
  });

  test("a review changes no payment, price or counter of the test or its payer", async () => {
    const t = createBackend();
    const { owner, member, testId } = await teamWithTest(t, answered);
    await t.run(async (ctx) => {
      const paymentId = await ctx.db.insert("payments", {
        userId: member.userId,
        testId,
        testName: "Coffee taglines",
        amountCents: 200,
        currency: "usd",
        status: "paid",
        completedAt: Date.now(),
      });
      await ctx.db.insert("creditTransactions", {
        userId: member.userId,
        testId,
        paymentId,
        type: "purchase",
        amountCents: 200,
        description: "Payment for Test: Coffee taglines",
      });
    });
    const snapshot = () =>
      t.run(async (ctx) => {
        const { juryVerdict: _verdict, ...test } = (await ctx.db.get("tests", testId))!;
        return {
          test,
          payments: await ctx.db.query("payments").collect(),
          credits: await ctx.db.query("creditTransactions").collect(),
          users: await ctx.db.query("users").collect(),
          counters: await ctx.db.query("counters").collect(),
        };
      });
    const before = await snapshot();
    for (const as of [owner.as, member.as]) {
      const ranking = await labelsFor(as, testId, "t1", [0, 1, 2]);
      await as.mutation(api.reviews.submit, { testId, personaId: "p1", topicId: "t1", ranking });
    }
    await settle(t);
    expect((await owner.as.query(api.reviews.summary, { testId }))!.pairsReviewed).toBe(1);
    expect(await snapshot()).toEqual(before);
  });
});

describe("an account that is deleted", () => {
  test("takes its verdicts with it, and the team's figures are recomputed without them", async () => {
    const t = createBackend();
    const { owner, member, teamId, testId } = await teamWithTest(t, [{ personaId: "p1", topicId: "t1" }]);
    // The test was started by the member; the owner's colleague reviews it, then their account goes.
    const colleague = await createUser(t, "colleague@example.com", { fullName: "Carl Colleague" });
    await t.run((ctx) => ctx.db.insert("memberships", { teamId, userId: colleague.userId, role: "member" }));
    for (const as of [owner.as, colleague.as]) {
      const ranking = await labelsFor(as, testId, "t1", [0, 1, 2]);
      await as.mutation(api.reviews.submit, { testId, personaId: "p1", topicId: "t1", ranking });
    }
    await settle(t);
    expect((await member.as.query(api.reviews.summary, { testId }))!.reviewers.map((r) => r.initials)).toEqual([
      "AL",
      "CC",
    ]);
    const admin = await createUser(t, "admin@example.com", { isAdmin: true });
    await admin.as.mutation(api.admin.deleteUser, { userId: colleague.userId });
    await settle(t);
    expect((await judgementsOf(t, testId)).map((row) => row.userId)).toEqual([owner.userId]);
    const summary = (await member.as.query(api.reviews.summary, { testId }))!;
    expect(summary.reviewers.map((r) => r.initials)).toEqual(["AL"]);
    expect(summary.reviewerAgreement).toBeNull();
    // The last reviewer gone too: the team's figures are cleared, not left as they were.
    await admin.as.mutation(api.admin.deleteUser, { userId: owner.userId });
    await settle(t);
    const empty = (await member.as.query(api.reviews.summary, { testId }))!;
    expect([empty.reviewers, empty.pairsReviewed, empty.models.map((model) => model.meanScore)]).toEqual([
      [],
      0,
      [null, null, null],
    ]);
  });
});

describe("the largest test", () => {
  test("a rating test at the call limit: the review page, a verdict and the recompute stay within a transaction's limits", async () => {
    // 10 personas × 10 topics, 3 models, 5 judges rating every answer: 300 generation calls and
    // 1,500 judge calls (the limit is 2,000), 300 answers of 3,000 characters.
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const ids = Array.from({ length: 10 }, (_, index) => index);
    const judges = [
      ...JUDGES,
      ...["x-ai/grok-3", "openai/gpt-4o", "anthropic/claude-sonnet-4"].map((id) => ({ id, name: id })),
    ];
    const configuration = reviewConfiguration({
      personas: ids.map((index) => ({ id: `p${index}`, name: `Persona ${index}`, description: "", systemPrompt: "" })),
      topics: ids.map((index) => ({ id: `t${index}`, title: `Topic ${index}`, description: "", prompt: "" })),
      evaluatorModels: judges,
      evaluationCriteria: { accuracy: true, creativity: true, clarity: true, relevance: true, style: true },
      scoringParameters: { scale: "rating", includeExplanations: true },
    });
    const { testId } = await seedTest(t, owner.userId, { configuration, answered: [] });
    for (const persona of configuration.personas) {
      await t.run(async (ctx) => {
        for (const topic of configuration.topics) {
          for (const model of MODELS) {
            const responseId = await ctx.db.insert("responses", {
              testId,
              modelId: model.id,
              personaId: persona.id,
              topicId: topic.id,
              content: `${model.name} on ${topic.id}: ` + "x".repeat(3000),
              promptTokens: 10,
              completionTokens: 10,
              tokens: 20,
              latencyMs: 500,
              costUsd: 0.0001,
              scoreSum: 0,
              scoreCount: 0,
            });
            for (const judge of judges) {
              await ctx.db.insert("calls", {
                testId,
                kind: "evaluate",
                key: `${testId}:rate:${judge.id}:${responseId}`,
                status: "succeeded",
                attempts: 1,
                modelId: judge.id,
                personaId: persona.id,
                topicId: topic.id,
                responseIds: [responseId],
              });
            }
          }
        }
      });
    }
    const view = (await owner.as.query(api.reviews.pair, { testId }))!;
    expect(view.pairs).toHaveLength(100);
    expect(view.pairs.every((pair) => pair.answers === 3)).toBe(true);
    const scores = Object.fromEntries(
      view.current!.answers.map((answer) => [answer.label, Object.fromEntries(view.criteria.map((c) => [c, 7]))]),
    );
    await owner.as.mutation(api.reviews.submit, { testId, personaId: "p0", topicId: "t0", scores });
    await settle(t);
    const summary = (await owner.as.query(api.reviews.summary, { testId }))!;
    expect([summary.pairsReviewed, summary.totalPairs]).toEqual([1, 100]);
  });
});
