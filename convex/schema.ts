import { authTables } from "@convex-dev/auth/server";
import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";
import { apiTokenTables } from "./tables/apiTokens";
import { authThrottleTables } from "./tables/authThrottle";
import { modelLatencyTables } from "./tables/modelLatencies";
import { checkTables } from "./tables/checks";
import { noteTables } from "./tables/notes";
import { presenceTables } from "./tables/presence";
import { runTables } from "./tables/runs";
import { workerTables } from "./tables/workers";
import { teamTables } from "./tables/teams";
import { testSummaryTables } from "./tables/testSummaries";
import { testOwnerTables } from "./tables/testOwners";
import { deletionTables } from "./tables/deletions";
import { testProgressTables } from "./tables/testProgress";
import { refundTables } from "./tables/refunds";
import { testCounterTables } from "./tables/testCounters";
import { juryAdviceTables } from "./tables/juryAdvice";
import { testNameTables } from "./tables/testNames";
import {
  alertKind,
  callKind,
  callStatus,
  checkFailure,
  costEstimate,
  creditTransactionType,
  jobStatus,
  paymentStatus,
  progress,
  resultsSummary,
  stopReason,
  runCounters,
  templateCategory,
  templateData,
  testConfiguration,
  testStatus,
  workerReport,
} from "./validators";
import { juryStatsTables, juryVerdictValidator } from "./tables/juryStats";

export default defineSchema({
  ...authTables,
  ...workerTables,
  ...authThrottleTables,
  ...modelLatencyTables,
  ...teamTables,
  ...noteTables,
  ...checkTables,
  ...presenceTables,
  ...apiTokenTables,
  ...testSummaryTables,
  ...juryStatsTables,
  ...testOwnerTables,
  ...deletionTables,
  ...testProgressTables,
  ...runTables,
  ...refundTables,
  ...testCounterTables,
  ...juryAdviceTables,
  ...testNameTables,

  // authTables.users plus the spec's profile fields (user_profiles).
  users: defineTable({
    name: v.optional(v.string()),
    image: v.optional(v.string()),
    email: v.optional(v.string()),
    emailVerificationTime: v.optional(v.number()),
    phone: v.optional(v.string()),
    phoneVerificationTime: v.optional(v.number()),
    isAnonymous: v.optional(v.boolean()),
    fullName: v.optional(v.union(v.string(), v.null())),
    avatarUrl: v.optional(v.union(v.string(), v.null())),
    isAdmin: v.optional(v.boolean()),
    totalSpentCents: v.optional(v.number()),
    testCount: v.optional(v.number()),
    // Dashboard figures, kept as tests end (core/userStats.ts) so the home never scans tests.
    completedTestCount: v.optional(v.number()),
    responseCount: v.optional(v.number()),
    evaluationCount: v.optional(v.number()),
    // The part of the figures above (and of totalSpentCents) that comes from team tests the user
    // started and paid for: the personal space's dashboard shows the figures less these
    // (core/userStats.ts personalFigures; the team's own are on its row).
    teamTestCount: v.optional(v.number()),
    teamCompletedTestCount: v.optional(v.number()),
    teamResponseCount: v.optional(v.number()),
    teamEvaluationCount: v.optional(v.number()),
    teamSpentCents: v.optional(v.number()),
    personaCount: v.optional(v.number()),
    topicCount: v.optional(v.number()),
    lastSignInAt: v.optional(v.number()),
    // Sessions begun, counted for accounts made since it was added: 1 is a brand-new user.
    signInCount: v.optional(v.number()),
    updatedAt: v.optional(v.number()),
  })
    .index("email", ["email"])
    .index("phone", ["phone"])
    .index("by_admin", ["isAdmin"]),

  personas: defineTable({
    userId: v.id("users"),
    name: v.string(),
    description: v.string(),
    systemPrompt: v.string(),
    updatedAt: v.number(),
  }).index("by_user", ["userId"]),

  topics: defineTable({
    userId: v.id("users"),
    title: v.string(),
    description: v.string(),
    prompt: v.string(),
    updatedAt: v.number(),
  }).index("by_user", ["userId"]),

  templates: defineTable({
    userId: v.id("users"),
    name: v.string(),
    description: v.string(),
    category: templateCategory,
    isPublic: v.boolean(),
    tags: v.array(v.string()),
    usageCount: v.number(),
    templateData,
    updatedAt: v.number(),
  })
    .index("by_user", ["userId"])
    .index("by_public_usage", ["isPublic", "usageCount"]),

  // Cache of the gateway's catalog (llm_models).
  llmModels: defineTable({
    modelId: v.string(),
    name: v.string(),
    provider: v.string(),
    contextLength: v.number(),
    pricingPrompt: v.number(),
    pricingCompletion: v.number(),
    description: v.string(),
    tier: v.string(),
    created: v.optional(v.number()),
    lastUpdated: v.number(),
  })
    .index("by_model_id", ["modelId"])
    .index("by_last_updated", ["lastUpdated"]),

  tests: defineTable({
    /** Who started the test, and pays for it. */
    userId: v.id("users"),
    /** The team the test belongs to; absent for a personal test. */
    teamId: v.optional(v.id("teams")),
    name: v.string(),
    taskType: v.string(),
    configuration: testConfiguration,
    status: testStatus,
    progress,
    estimate: costEstimate,
    priceCents: v.number(),
    usesOwnKey: v.boolean(),
    expectedResponses: v.number(),
    expectedEvaluations: v.number(),
    // The run counters, folded from the recordings' deltas (core/pipeline/runCounters.ts).
    ...runCounters.fields,
    activeWorkers: v.number(),
    resultsSummary: v.optional(resultsSummary),
    /** The jury statistics' verdict: the best model, or those statistically tied; shown by History. */
    juryVerdict: v.optional(juryVerdictValidator),
    errorMessage: v.optional(v.string()),
    /** Why a completed test stopped before its last pair ("stop when settled"). */
    stopped: v.optional(stopReason),
    /** The latest gateway error, kept to explain a test in which nothing succeeded. */
    lastCallError: v.optional(v.string()),
    /**
     * A draft waiting for its checkout: set at creation when the run is paid, cleared when the
     * payment settles. A draft is not a test run (Total Tests, the monitor's current test).
     */
    awaitingPayment: v.optional(v.boolean()),
    /**
     * Set while the run's generation calls are created in batches (the next persona × topic
     * pair to create); the test cannot finish before they all exist.
     */
    callCursor: v.optional(v.number()),
    /**
     * A re-judging ("Judge again", rejudge.ts): the finished test whose answers it copies when it
     * starts; it makes judge calls only and is priced as judging alone.
     */
    rejudgeOf: v.optional(v.id("tests")),
    startedAt: v.optional(v.number()),
    completedAt: v.optional(v.number()),
    lastProgressAt: v.number(),
    /** The test this one reruns (setup's Rerun Test): its results offer "Compare with the original". */
    rerunOf: v.optional(v.id("tests")),
  })
    // Newest-first history needs creation order; by_user_status sorts by status.
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_user", ["userId"])
    .index("by_user_status", ["userId", "status"])
    // The personal space's tests (teamId absent), newest first.
    .index("by_user_team", ["userId", "teamId"])
    // A team's tests, newest first (history, dashboard in the team's space); by_team_status: its monitor.
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_team", ["teamId"])
    .index("by_team_status", ["teamId", "status"])
    .index("by_status_progress", ["status", "lastProgressAt"]),

  // The job queue row of a test (job_queue).
  jobs: defineTable({
    testId: v.id("tests"),
    userId: v.id("users"),
    testName: v.string(),
    status: jobStatus,
    priority: v.number(),
    startedAt: v.optional(v.number()),
    completedAt: v.optional(v.number()),
    errorMessage: v.optional(v.string()),
    retryCount: v.number(),
    maxRetries: v.number(),
    progressData: v.optional(v.any()),
    paymentData: v.optional(v.any()),
    amountCents: v.number(),
  })
    .index("by_status_priority", ["status", "priority"])
    // The admin jobs list filters by status newest first; by_status_priority sorts by priority.
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_status", ["status"])
    .index("by_test", ["testId"])
    .index("by_user", ["userId"]),

  // One gateway call of a test; `key` is deterministic so a result is recorded once.
  calls: defineTable({
    testId: v.id("tests"),
    kind: callKind,
    key: v.string(),
    status: callStatus,
    attempts: v.number(),
    leaseExpiresAt: v.optional(v.number()),
    leaseId: v.optional(v.string()),
    /** The lease whose result was recorded: the same result sent again (a batch retried) changes nothing. */
    recordedLeaseId: v.optional(v.string()),
    modelId: v.string(),
    personaId: v.string(),
    topicId: v.string(),
    /** Generation: answers still wanted; missing ones are asked for once more. */
    answersWanted: v.optional(v.number()),
    missingRetried: v.optional(v.boolean()),
    responseIds: v.optional(v.array(v.id("responses"))),
    error: v.optional(v.string()),
    /** Which run of its cell (0-based) when the test repeats cells (configuration.repeats > 1). */
    repeat: v.optional(v.number()),
    /**
     * A generation call that ended while its pair had no judge calls yet: set by its recording,
     * cleared once the pair is done and has them (core/pipeline/calls.ts). A worker that died in
     * between left such pairs; its replacement's sweep reads only these (core/pipeline/host.ts).
     */
    awaitingJudges: v.optional(v.boolean()),
  })
    .index("by_key", ["key"])
    .index("by_test_status", ["testId", "status"])
    // Kept beside by_test_pair_status for its order by creation: the jury statistics page through
    // a test's judge calls while their status changes.
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_test_pair", ["testId", "kind", "personaId", "topicId"])
    // Whether a pair's generation has ended, in two `.first()` reads rather than its 10 calls.
    .index("by_test_pair_status", ["testId", "kind", "personaId", "topicId", "status"])
    .index("by_status_lease", ["status", "leaseExpiresAt"])
    .index("by_test_awaiting_judges", ["testId", "awaitingJudges", "personaId", "topicId"])
    // A test set to stop when settled claims its pending judge calls before its generation calls.
    .index("by_test_kind_status", ["testId", "kind", "status"]),

  responses: defineTable({
    testId: v.id("tests"),
    callId: v.optional(v.id("calls")),
    modelId: v.string(),
    personaId: v.string(),
    topicId: v.string(),
    content: v.string(),
    promptTokens: v.number(),
    completionTokens: v.number(),
    tokens: v.number(),
    latencyMs: v.number(),
    costUsd: v.number(),
    scoreSum: v.number(),
    scoreCount: v.number(),
    /** The checks (lib/checks.ts) this answer failed, and why; absent when none ran. */
    checkFailures: v.optional(v.array(checkFailure)),
    /** True when it failed at least one check: "only answers that failed a check". */
    failedCheck: v.optional(v.boolean()),
    /** Which run of its cell (0-based) it came from when the test repeats cells; absent = 0. */
    repeat: v.optional(v.number()),
  })
    // Arrival order (latest responses on the monitor) needs creation order.
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_test", ["testId"])
    .index("by_test_failed", ["testId", "failedCheck"])
    .index("by_test_pair", ["testId", "personaId", "topicId"]),

  evaluations: defineTable({
    testId: v.id("tests"),
    responseId: v.id("responses"),
    evaluatorModelId: v.string(),
    scores: v.record(v.string(), v.number()),
    /** "" on a ranking call's rows written since its explanation is kept once (judgeExplanations). */
    explanation: v.string(),
    rank: v.optional(v.number()),
    costUsd: v.number(),
    /** The judge call it came from: a ranking call's evaluations share it and its explanation. */
    callId: v.optional(v.id("calls")),
    /** "reverse" for the second call of "Judge in both orders". */
    order: v.optional(v.union(v.literal("forward"), v.literal("reverse"))),
    /** Ranking: the neutral label this answer was shown under ('G'); its call's labels are on its judgeExplanations row. */
    label: v.optional(v.string()),
    /** Rows written before a call's labels were kept once (judgeExplanations): which label showed which answer. */
    labels: v.optional(v.array(v.object({ label: v.string(), responseId: v.id("responses") }))),
  })
    .index("by_test", ["testId"])
    .index("by_response", ["responseId"]),

  // Running sums per test × model × persona ("" = all personas), read by monitor and results.
  modelStats: defineTable({
    testId: v.id("tests"),
    modelId: v.string(),
    personaId: v.string(),
    responses: v.number(),
    tokens: v.number(),
    costUsd: v.number(),
    latencyMsSum: v.number(),
    latencyBuckets: v.array(v.number()),
    /**
     * Every answer's latency in ms, sorted, on the all-personas row: exact median and p95. At most
     * personas × topics × responses per topic (1,000) per model. Older rows have only the buckets.
     */
    latenciesMs: v.optional(v.array(v.number())),
    scoreSum: v.number(),
    scoreCount: v.number(),
    /**
     * Rows written before one row per model × persona carry the shard they summed (0 on the
     * rest); the migration core/run/migrations.ts merges them and clears it. Nothing reads it.
     */
    shard: v.optional(v.number()),
  }).index("by_test_model_persona", ["testId", "modelId", "personaId"]),

  /**
   * A running test's gateway concurrency (lib/concurrency.ts), reported by its worker about once
   * a second: the controller's level and what the gateway answered, for the admin's System
   * Health and for the worker's next chunk to continue from.
   */
  testConcurrency: defineTable({
    testId: v.id("tests"),
    /** The worker's last report, with its exchanges summed over the run. */
    ...workerReport.fields,
    updatedAt: v.number(),
    /**
     * Reports that said judge results were recorded (the worker's report owns this count): the
     * worker's statistics look recomputes when it moved (core/pipeline/workerLook.ts), so no report reads or
     * writes the statistics row.
     */
    judgedReports: v.optional(v.number()),
    /**
     * `exchanges` when the report last folded the counters (core/pipeline/runCounters.ts
     * foldIfDue): the calls that ended since, counted without reading their deltas each report.
     */
    foldedExchanges: v.optional(v.number()),
    /** The worker host serves the test (core/pipeline/host.ts): set when it needs a worker, cleared when done. */
    served: v.optional(v.boolean()),
  })
    .index("by_test", ["testId"])
    .index("by_served", ["served"]),

  // A ranking call's explanation and labels, once (core/pipeline/evaluations.ts): its evaluation
  // rows, one per answer it ranked, leave the explanation empty and keep only their own label;
  // core/results.ts judgeCallReader puts them back.
  judgeExplanations: defineTable({
    testId: v.id("tests"),
    callId: v.id("calls"),
    explanation: v.string(),
    /** Which neutral label showed which answer in the call, in the order shown (absent on older rows). */
    labels: v.optional(v.array(v.object({ label: v.string(), responseId: v.id("responses") }))),
  })
    .index("by_call", ["callId"])
    .index("by_test", ["testId"]),

  // A teammate's blind verdict on one persona × topic pair of a test (reviews.ts): the answers best
  // first (ranking scale) or each answer's 1–10 scores per criterion (rating scale).
  humanJudgements: defineTable({
    testId: v.id("tests"),
    userId: v.id("users"),
    personaId: v.string(),
    topicId: v.string(),
    ranking: v.optional(v.array(v.id("responses"))),
    scores: v.optional(v.array(v.object({ responseId: v.id("responses"), scores: v.record(v.string(), v.number()) }))),
    updatedAt: v.number(),
  })
    .index("by_test_pair_user", ["testId", "personaId", "topicId", "userId"])
    // The pairs one reviewer has done (the review page's list); by testId alone: every verdict of a test.
    .index("by_test_user", ["testId", "userId"])
    // A deleted account's verdicts (core/admin.ts).
    .index("by_user", ["userId"]),

  payments: defineTable({
    /** Who paid: whoever started the test, a team test included. */
    userId: v.id("users"),
    testId: v.optional(v.id("tests")),
    /** The team of the test paid for, set at checkout: the team's spend by member reads these. */
    teamId: v.optional(v.id("teams")),
    testName: v.string(),
    /** The provider's checkout session (core/paymentProvider.ts). */
    checkoutId: v.optional(v.string()),
    amountCents: v.number(),
    currency: v.string(),
    status: paymentStatus,
    completedAt: v.optional(v.number()),
    /** The provider's hosted page of an open session, handed to a second tab instead of a new session. */
    checkoutUrl: v.optional(v.string()),
    /** The provider's id of the charge, set when paid; what a refund is made against. */
    providerPaymentId: v.optional(v.string()),
    /** What the provider says was charged, when it differs from the quote (amount_mismatch). */
    receivedCents: v.optional(v.number()),
    receivedCurrency: v.optional(v.string()),
    /** Why the money goes back (shown to the owner), and the refund once Stripe made it. */
    refundReason: v.optional(v.string()),
    providerRefundId: v.optional(v.string()),
    refundedAt: v.optional(v.number()),
    /** The part already returned by partial refunds (tables/refunds.ts); the payment stays paid. */
    refundedCents: v.optional(v.number()),
    /**
     * The same three under their Stripe names, on rows written before the provider-neutral names:
     * read beside the new ones (core/payments.ts checkoutIdOf) until payments.migratePaymentFields
     * has moved them; then these fields and the by_stripe_session index can go.
     */
    stripeSessionId: v.optional(v.string()),
    stripePaymentIntentId: v.optional(v.string()),
    stripeRefundId: v.optional(v.string()),
    /**
     * How a team test's payment is counted in its payer's teamSpend row: "paid" (its cents and
     * test added), "refunded" (then its cents returned); absent: not counted. Counting once per
     * step is what lets the rebuild run beside live payments (core/teamSpend.ts).
     */
    teamSpendCounted: v.optional(v.union(v.literal("paid"), v.literal("refunded"))),
  })
    .index("by_user", ["userId"])
    .index("by_test", ["testId"])
    .index("by_session", ["checkoutId"])
    .index("by_stripe_session", ["stripeSessionId"])
    .index("by_team", ["teamId"])
    .index("by_status", ["status"]),

  /**
   * A team's spend by member (billing.teamSpend), kept where a team test's payment is recorded
   * and refunded (core/payments.ts), so the owners' summary reads one row per member.
   */
  teamSpend: defineTable({
    teamId: v.id("teams"),
    /** The member who started and paid for the tests. */
    userId: v.id("users"),
    paidCents: v.number(),
    refundedCents: v.number(),
    /** Paid tests, less those whose payment went back. */
    tests: v.number(),
  }).index("by_team_user", ["teamId", "userId"]),

  creditTransactions: defineTable({
    userId: v.id("users"),
    testId: v.optional(v.id("tests")),
    paymentId: v.optional(v.id("payments")),
    type: creditTransactionType,
    amountCents: v.number(),
    description: v.string(),
  })
    .index("by_user", ["userId"])
    .index("by_test", ["testId"]),

  shares: defineTable({
    testId: v.id("tests"),
    userId: v.id("users"),
    shareId: v.string(),
    isActive: v.boolean(),
  })
    .index("by_share_id", ["shareId"])
    .index("by_test", ["testId"]),

  contactMessages: defineTable({
    name: v.string(),
    email: v.string(),
    subject: v.string(),
    message: v.string(),
    emailed: v.boolean(),
  }).index("by_email", ["email"]),

  // Users' own gateway keys, AES-GCM encrypted; never returned to the browser.
  apiKeys: defineTable({
    userId: v.id("users"),
    ciphertext: v.string(),
    iv: v.string(),
    last4: v.string(),
    savedAt: v.optional(v.number()),
  }).index("by_user", ["userId"]),

  alerts: defineTable({
    kind: alertKind,
    /** The stuck job; for payment alerts the test's job when it still exists. */
    jobId: v.optional(v.id("jobs")),
    paymentId: v.optional(v.id("payments")),
    message: v.string(),
    resolved: v.boolean(),
  })
    .index("by_job", ["jobId"])
    .index("by_resolved", ["resolved"]),

  // Aggregates kept as data changes (admin figures), and deployment settings.
  // Admin figures (core/counters.ts), sharded: a counter is the sum of its rows (one per shard,
  // and a row without a shard from before), so tests ending at once do not all write one row.
  counters: defineTable({ name: v.string(), value: v.number(), shard: v.optional(v.number()) }).index("by_name", [
    "name",
    "shard",
  ]),
  settings: defineTable({ key: v.string(), value: v.number() }).index("by_key", ["key"]),
});
