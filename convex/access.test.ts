// Every public function in the generated API, with who may call it. A new public function
// without an entry fails the first test; each entry is then exercised against the callers
// it must refuse.
import { makeFunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import type { TeamRole } from "./lib/teams";
import { api } from "./_generated/api";
import {
  createUser,
  createBackend,
  sampleConfiguration,
  sampleTemplateData,
  seedCatalog,
  type TestBackend,
  functionModules,
} from "./test.helpers";

type Fixture = {
  owner: { userId: Id<"users"> };
  personaId: Id<"personas">;
  topicId: Id<"topics">;
  privateTemplateId: Id<"templates">;
  testId: Id<"tests">;
  jobId: Id<"jobs">;
  alertId: Id<"alerts">;
  /** An answer of the owner's test, and the owner's note on it. */
  responseId: Id<"responses">;
  noteId: Id<"notes">;
  team: TeamFixture;
};

/** A team of the fixture's owner with one caller per place on the team axis, and a pending invitation. */
type TeamFixture = {
  teamId: Id<"teams">;
  invitationId: Id<"invitations">;
  token: string;
  /** Whom the role and removal functions act on. */
  targetId: Id<"users">;
  callers: Record<TeamAxis, ReturnType<TestBackend["withIdentity"]>>;
};

const TEAM_AXIS = ["owner", "member", "viewer", "outsider", "removed member"] as const;
type TeamAxis = (typeof TEAM_AXIS)[number];

type Access =
  /** Anyone, signed in or not. */
  | { who: "anyone" }
  /** Signed-in users; `args` builds valid arguments touching the owner's rows, so another user must be refused too. */
  | { who: "user"; args?: (fx: Fixture) => Record<string, unknown>; ownerOnly?: boolean }
  | { who: "admin"; args?: (fx: Fixture) => Record<string, unknown> }
  /** Signed-in members of the team in `args` with at least `minimum`; outsiders and removed members are refused. */
  | { who: "team"; minimum: TeamRole; args: (team: TeamFixture) => Record<string, unknown> };

const ACCESS: Record<string, Access> = {
  "auth:signIn": { who: "anyone" },
  "auth:signOut": { who: "anyone" },
  "auth:isAuthenticated": { who: "anyone" },
  "users:viewer": { who: "anyone" },
  "users:authOptions": { who: "anyone" },
  "profile:get": { who: "user" },
  "profile:update": { who: "user", args: () => ({ fullName: "X", avatarUrl: null }) },
  "personas:list": { who: "user" },
  "personas:create": { who: "user", args: () => ({ name: "N", description: "D", systemPrompt: "S" }) },
  "personas:update": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ personaId: fx.personaId, name: "N", description: "D", systemPrompt: "S" }),
  },
  "personas:remove": { who: "user", ownerOnly: true, args: (fx) => ({ personaId: fx.personaId }) },
  "topics:list": { who: "user" },
  "topics:create": { who: "user", args: () => ({ title: "T", description: "D", prompt: "P" }) },
  "topics:update": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ topicId: fx.topicId, title: "T", description: "D", prompt: "P" }),
  },
  "topics:remove": { who: "user", ownerOnly: true, args: (fx) => ({ topicId: fx.topicId }) },
  "templates:listOwn": { who: "user" },
  "templates:listPublic": { who: "anyone" },
  "templates:get": { who: "user", args: (fx) => ({ templateId: fx.privateTemplateId }) },
  "templates:create": {
    who: "user",
    args: () => ({
      name: "N",
      description: "D",
      category: "general",
      isPublic: false,
      tags: [],
      templateData: sampleTemplateData,
    }),
  },
  "templates:remove": { who: "user", ownerOnly: true, args: (fx) => ({ templateId: fx.privateTemplateId }) },
  "templates:setVisibility": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ templateId: fx.privateTemplateId, isPublic: true }),
  },
  "templates:recordUse": { who: "user", ownerOnly: true, args: (fx) => ({ templateId: fx.privateTemplateId }) },
  "templates:saveCopy": { who: "user", ownerOnly: true, args: (fx) => ({ templateId: fx.privateTemplateId }) },
  "models:list": { who: "anyone" },
  "models:timing": { who: "anyone" },
  "models:requestRefresh": { who: "user" },
  "tests:create": { who: "user", args: () => ({ configuration: sampleConfiguration() }) },
  "tests:paymentMode": { who: "user" },
  "tests:cancel": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "tests:current": { who: "user" },
  "tests:monitor": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "settle:status": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "payments:createCheckout": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "payments:verify": { who: "user", args: () => ({ sessionId: "cs_test_unknown" }) },
  "payments:testRefund": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "refunds:stopPreview": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "refunds:ofTest": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "tests:remove": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "rejudge:create": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId, ...sampleJury() }) },
  "rejudge:about": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "results:get": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "results:test": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "results:live": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "results:responses": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ testId: fx.testId, paginationOpts: { numItems: 20, cursor: null } }),
  },
  "results:evaluations": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ testId: fx.testId, paginationOpts: { numItems: 10, cursor: null } }),
  },
  "results:exportResponses": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ testId: fx.testId, paginationOpts: { numItems: 500, cursor: null } }),
  },
  "results:exportEvaluations": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ testId: fx.testId, paginationOpts: { numItems: 500, cursor: null } }),
  },
  "results:juryStats": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "compare:get": { who: "user", ownerOnly: true, args: (fx) => ({ a: fx.testId, b: fx.testId }) },
  "compare:answers": { who: "user", ownerOnly: true, args: (fx) => ({ a: fx.testId, b: fx.testId }) },
  "checks:summary": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "checks:failedResponses": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ testId: fx.testId, paginationOpts: { numItems: 20, cursor: null } }),
  },
  // Anyone holding an active link, as shares:view.
  "checks:sharedSummary": { who: "anyone" },
  "reviews:pair": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "reviews:submit": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ testId: fx.testId, personaId: "p1", topicId: "t1", ranking: ["A", "B"] }),
  },
  "reviews:summary": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "notes:list": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "notes:canAdd": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "notes:add": {
    who: "user",
    ownerOnly: true,
    args: (fx) => ({ testId: fx.testId, responseId: fx.responseId, body: "Too formal for the persona." }),
  },
  // The author, or an owner of the test's team (notes.test.ts has the team axis).
  "notes:remove": { who: "user", ownerOnly: true, args: (fx) => ({ noteId: fx.noteId }) },
  "history:list": { who: "user" },
  "juryAdvice:forTest": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "juryAdvice:ofSpace": { who: "user" },
  "shares:enable": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  "shares:disable": { who: "user", ownerOnly: true, args: (fx) => ({ testId: fx.testId }) },
  // Anyone holding an active link; presence checks the room itself (presence.test.ts, shares.test.ts).
  "shares:view": { who: "anyone" },
  "shares:test": { who: "anyone" },
  "shares:live": { who: "anyone" },
  "shares:juryStats": { who: "anyone" },
  "sharedExtras:juryAdvice": { who: "anyone" },
  "sharedExtras:settleStatus": { who: "anyone" },
  "presence:heartbeat": { who: "anyone" },
  "presence:leave": { who: "anyone" },
  "presence:viewers": { who: "anyone" },
  "profile:changePassword": {
    who: "user",
    args: () => ({ currentPassword: "old-password", newPassword: "new-password" }),
  },
  "dashboard:home": { who: "user" },
  "billing:overview": { who: "user" },
  "billing:teamSpend": { who: "team", minimum: "owner", args: (team) => ({ teamId: team.teamId }) },
  "apiKeys:status": { who: "user" },
  "apiKeys:save": { who: "user", args: () => ({ key: "sk-or-v1-0123456789abcdef" }) },
  "apiKeys:check": { who: "user" },
  "apiKeys:remove": { who: "user" },
  // Own tokens only: another user's token id is not found (publicApi.test.ts).
  "apiTokens:list": { who: "user" },
  "apiTokens:create": { who: "user", args: () => ({ name: "CI" }) },
  "apiTokens:revoke": { who: "user", args: () => ({ tokenId: "not-a-token" }) },
  "contact:submit": { who: "anyone" },
  "contact:list": { who: "admin" },
  "admin:stats": { who: "admin" },
  "admin:health": { who: "admin", args: () => ({ now: 0 }) },
  "admin:gatewayLoad": { who: "admin" },
  "admin:listUsers": { who: "admin" },
  "admin:setAdmin": { who: "admin", args: (fx) => ({ userId: fx.owner.userId, isAdmin: true }) },
  "admin:deleteUser": { who: "admin", args: (fx) => ({ userId: fx.owner.userId }) },
  "admin:listJobs": { who: "admin", args: () => ({ status: "queued", limit: 10 }) },
  "admin:jobDetails": { who: "admin", args: (fx) => ({ jobId: fx.jobId }) },
  "admin:retryJob": { who: "admin", args: (fx) => ({ jobId: fx.jobId }) },
  "admin:cancelJob": { who: "admin", args: (fx) => ({ jobId: fx.jobId }) },
  "admin:forceRestartJob": { who: "admin", args: (fx) => ({ jobId: fx.jobId }) },
  "admin:setJobPriority": { who: "admin", args: (fx) => ({ jobId: fx.jobId, priority: 1 }) },
  "admin:deleteJob": { who: "admin", args: (fx) => ({ jobId: fx.jobId }) },
  "admin:listAlerts": { who: "admin" },
  "admin:resolveAlert": { who: "admin", args: (fx) => ({ alertId: fx.alertId }) },
  "teams:mine": { who: "user" },
  "teams:create": { who: "user", args: () => ({ name: "Team" }) },
  "teams:get": { who: "team", minimum: "viewer", args: (team) => ({ teamId: team.teamId }) },
  "teams:invitations": { who: "team", minimum: "owner", args: (team) => ({ teamId: team.teamId }) },
  "teams:rename": { who: "team", minimum: "owner", args: (team) => ({ teamId: team.teamId, name: "Renamed" }) },
  "teams:remove": { who: "team", minimum: "owner", args: (team) => ({ teamId: team.teamId }) },
  "teams:invite": {
    who: "team",
    minimum: "owner",
    args: (team) => ({ teamId: team.teamId, email: "new@example.com", role: "member" }),
  },
  "teams:revokeInvitation": { who: "team", minimum: "owner", args: (team) => ({ invitationId: team.invitationId }) },
  "teams:setRole": {
    who: "team",
    minimum: "owner",
    args: (team) => ({ teamId: team.teamId, userId: team.targetId, role: "viewer" }),
  },
  "teams:removeMember": {
    who: "team",
    minimum: "owner",
    args: (team) => ({ teamId: team.teamId, userId: team.targetId }),
  },
  "teams:leave": { who: "team", minimum: "viewer", args: (team) => ({ teamId: team.teamId }) },
  // The link's token is the secret; only the invited address can accept or decline (teams.test.ts).
  "teams:invitation": { who: "anyone" },
  "teams:accept": { who: "user", args: (fx) => ({ token: fx.team.token }) },
  "teams:decline": { who: "user", args: (fx) => ({ token: fx.team.token }) },
};

/**
 * How each function that takes a testId treats a team test: the least role that may
 * call it (owners and members act, viewers read), or only whoever started the test (they pay).
 * Outsiders and removed members are refused by all of them.
 */
type TeamTestAccess = { minimum: TeamRole } | { starter: true };

const TEAM_TEST_ACCESS: Record<string, TeamTestAccess> = {
  "tests:cancel": { minimum: "member" },
  "tests:remove": { minimum: "member" },
  "rejudge:create": { minimum: "member" },
  "rejudge:about": { minimum: "viewer" },
  "juryAdvice:forTest": { minimum: "viewer" },
  "tests:monitor": { minimum: "viewer" },
  "settle:status": { minimum: "viewer" },
  "payments:createCheckout": { starter: true },
  "payments:testRefund": { minimum: "viewer" },
  "refunds:stopPreview": { minimum: "member" },
  "refunds:ofTest": { minimum: "viewer" },
  "results:get": { minimum: "viewer" },
  "results:test": { minimum: "viewer" },
  "results:live": { minimum: "viewer" },
  "results:responses": { minimum: "viewer" },
  "results:evaluations": { minimum: "viewer" },
  "results:exportResponses": { minimum: "viewer" },
  "results:exportEvaluations": { minimum: "viewer" },
  "results:juryStats": { minimum: "viewer" },
  "checks:summary": { minimum: "viewer" },
  "checks:failedResponses": { minimum: "viewer" },
  "reviews:pair": { minimum: "viewer" },
  "reviews:submit": { minimum: "member" },
  "reviews:summary": { minimum: "viewer" },
  "notes:list": { minimum: "viewer" },
  "notes:canAdd": { minimum: "viewer" },
  "notes:add": { minimum: "member" },
  "shares:enable": { minimum: "member" },
  "shares:disable": { minimum: "member" },
};

type RegisteredFunction = {
  exportArgs?: () => string;
  exportReturns?: () => string;
  isPublic?: boolean;
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
};

async function publicFunctions(): Promise<Map<string, RegisteredFunction>> {
  const found = new Map<string, RegisteredFunction>();
  for await (const [moduleName, exports] of functionModules()) {
    for (const [name, value] of Object.entries(exports)) {
      const fn = value as RegisteredFunction;
      if (typeof value === "function" && fn.isPublic && (fn.isQuery || fn.isMutation || fn.isAction)) {
        found.set(`${moduleName}:${name}`, fn);
      }
    }
  }
  return found;
}

async function call(
  t: TestBackend | ReturnType<TestBackend["withIdentity"]>,
  name: string,
  fn: RegisteredFunction,
  args: Record<string, unknown>,
) {
  if (fn.isQuery) return await t.query(makeFunctionReference<"query">(name), args);
  if (fn.isMutation) return await t.mutation(makeFunctionReference<"mutation">(name), args);
  return await t.action(makeFunctionReference<"action">(name), args);
}

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof ConvexError) return (error.data as { code?: string }).code;
    return `non-ConvexError: ${String(error)}`;
  }
}

async function jobAndAlertOf(ctx: MutationCtx, testId: Id<"tests">) {
  const job = (await ctx.db
    .query("jobs")
    .withIndex("by_test", (q) => q.eq("testId", testId))
    .unique())!;
  const alertId = await ctx.db.insert("alerts", {
    kind: "stuck_job",
    jobId: job._id,
    message: "Stuck",
    resolved: false,
  });
  return { jobId: job._id, alertId };
}

async function answerAndNoteOf(ctx: MutationCtx, testId: Id<"tests">, userId: Id<"users">) {
  const responseId = await insertResponse(ctx, testId);
  const noteId = await ctx.db.insert("notes", { testId, responseId, userId, body: "Mine.", createdAt: 0 });
  return { responseId, noteId };
}

async function teamFixture(t: TestBackend, owner?: Awaited<ReturnType<typeof createUser>>): Promise<TeamFixture> {
  const teamOwner = owner ?? (await createUser(t, "owner@example.com"));
  const member = await createUser(t, "member@example.com");
  const viewer = await createUser(t, "viewer@example.com");
  const outsider = await createUser(t, "outsider@example.com");
  const removed = await createUser(t, "removed@example.com");
  const { teamId } = await teamOwner.as.mutation(api.teams.create, { name: "Team" });
  const token = "pending-invitation-token";
  const invitationId = await t.run(async (ctx) => {
    await ctx.db.insert("memberships", { teamId, userId: member.userId, role: "member" });
    await ctx.db.insert("memberships", { teamId, userId: viewer.userId, role: "viewer" });
    const gone = await ctx.db.insert("memberships", { teamId, userId: removed.userId, role: "member" });
    await ctx.db.delete("memberships", gone);
    return await ctx.db.insert("invitations", {
      teamId,
      email: "invitee@example.com",
      role: "member",
      token,
      expiresAt: Date.now() + 3_600_000,
      invitedBy: teamOwner.userId,
    });
  });
  return {
    teamId,
    invitationId,
    token,
    targetId: member.userId,
    callers: {
      owner: teamOwner.as,
      member: member.as,
      viewer: viewer.as,
      outsider: outsider.as,
      "removed member": removed.as,
    },
  };
}

/** A re-judging's jury (rejudge.create): another evaluator, the sample's settings. */
function sampleJury() {
  const { evaluationCriteria, scoringParameters } = sampleConfiguration();
  return {
    evaluatorModels: [{ id: "anthropic/claude-3.5-haiku", name: "Claude" }],
    evaluationCriteria,
    scoringParameters,
  };
}

/** An answer of the test, as the pipeline stores one. */
async function insertResponse(ctx: MutationCtx, testId: Id<"tests">): Promise<Id<"responses">> {
  return await ctx.db.insert("responses", {
    testId,
    modelId: "openai/gpt-4o-mini",
    personaId: "p1",
    topicId: "t1",
    content: "An answer.",
    promptTokens: 1,
    completionTokens: 1,
    tokens: 2,
    latencyMs: 100,
    costUsd: 0,
    scoreSum: 0,
    scoreCount: 0,
  });
}

/** A team fixture whose member has started a test in the team, with one answer. */
async function teamTestFixture(
  t: TestBackend,
): Promise<TeamFixture & { testId: Id<"tests">; responseId: Id<"responses"> }> {
  const team = await teamFixture(t);
  await seedCatalog(t, ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"]);
  const { testId } = await team.callers.member.mutation(api.tests.create, {
    configuration: sampleConfiguration(),
    teamId: team.teamId,
  });
  const responseId = await t.run((ctx) => insertResponse(ctx, testId));
  return { ...team, testId, responseId };
}

async function fixture(t: TestBackend): Promise<Fixture> {
  const owner = await createUser(t, "owner@example.com");
  const team = await teamFixture(t, owner);
  await seedCatalog(t, ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"]);
  const { testId } = await owner.as.mutation(api.tests.create, { configuration: sampleConfiguration() });
  const rows = await t.run(async (ctx) => ({
    testId,
    ...(await jobAndAlertOf(ctx, testId)),
    ...(await answerAndNoteOf(ctx, testId, owner.userId)),
    owner: { userId: owner.userId },
    personaId: await ctx.db.insert("personas", {
      userId: owner.userId,
      name: "P",
      description: "D",
      systemPrompt: "S",
      updatedAt: 0,
    }),
    topicId: await ctx.db.insert("topics", {
      userId: owner.userId,
      title: "T",
      description: "D",
      prompt: "P",
      updatedAt: 0,
    }),
    privateTemplateId: await ctx.db.insert("templates", {
      userId: owner.userId,
      name: "Mine",
      description: "Private",
      category: "general",
      isPublic: false,
      tags: [],
      usageCount: 0,
      templateData: sampleTemplateData,
      updatedAt: 0,
    }),
  }));
  return { ...rows, team };
}

describe("access table", () => {
  test("every public function has an entry, and every entry is a public function", async () => {
    const found = [...(await publicFunctions()).keys()].sort();
    expect(found.filter((name) => !(name in ACCESS))).toEqual([]);
    expect(Object.keys(ACCESS).filter((name) => !found.includes(name))).toEqual([]);
  });

  test("every public function of ours validates its arguments and its result", async () => {
    const loose = [];
    for (const [name, fn] of await publicFunctions()) {
      if (name.startsWith("auth:")) continue; // built by the auth library
      if (JSON.parse(fn.exportArgs?.() ?? "null")?.type !== "object") loose.push(`${name} args`);
      if (fn.exportReturns?.() === "null") loose.push(`${name} returns`);
    }
    expect(loose).toEqual([]);
  });

  test("signed-out callers are refused by every user and admin function", async () => {
    const t = createBackend();
    const fx = await fixture(t);
    for (const [name, fn] of await publicFunctions()) {
      const access = ACCESS[name];
      if (!access || access.who === "anyone") continue;
      const args = access.who === "team" ? access.args(fx.team) : (access.args?.(fx) ?? {});
      expect([name, await errorCode(call(t, name, fn, args))]).toEqual([name, "UNAUTHENTICATED"]);
    }
  });

  test("non-admins are refused by every admin function", async () => {
    const t = createBackend();
    const fx = await fixture(t);
    const { as } = await createUser(t, "plain@example.com");
    for (const [name, fn] of await publicFunctions()) {
      const access = ACCESS[name];
      if (access?.who !== "admin") continue;
      expect([name, await errorCode(call(as, name, fn, access.args?.(fx) ?? {}))]).toEqual([name, "FORBIDDEN"]);
    }
  });

  test("another user is refused by every function that touches the owner's rows", async () => {
    const t = createBackend();
    const fx = await fixture(t);
    const { as } = await createUser(t, "intruder@example.com");
    for (const [name, fn] of await publicFunctions()) {
      const access = ACCESS[name];
      if (access?.who !== "user" || !access.ownerOnly || !access.args) continue;
      const code = await errorCode(call(as, name, fn, access.args(fx)));
      expect([name, code === "NOT_FOUND" || code === "FORBIDDEN"]).toEqual([name, true]);
    }
  });

  test("team axis: each team function lets in the roles it names and refuses the others, removed members at once", async () => {
    const rank: Record<TeamRole, number> = { viewer: 0, member: 1, owner: 2 };
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const [name, fn] of await publicFunctions()) {
      const access = ACCESS[name];
      if (access?.who !== "team") continue;
      for (const caller of TEAM_AXIS) {
        // A fresh team per call: an allowed call may delete the team or the target.
        const team = await teamFixture(createBackend());
        const code = await errorCode(call(team.callers[caller], name, fn, access.args(team)));
        const allowed = caller !== "outsider" && caller !== "removed member" && rank[caller] >= rank[access.minimum];
        const refused = code === "FORBIDDEN" || code === "NOT_FOUND" || code === "UNAUTHENTICATED";
        outcomes.push(`${name} ${caller}: ${refused ? `refused (${code})` : "allowed"}`);
        expected.push(
          `${name} ${caller}: ${allowed ? "allowed" : `refused (${caller === "outsider" || caller === "removed member" ? "NOT_FOUND" : "FORBIDDEN"})`}`,
        );
      }
    }
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes).toEqual(expected);
  });

  test("every function that takes a testId says how it treats a team test", async () => {
    const t = createBackend();
    const fx = await fixture(t);
    const takingTestId = Object.entries(ACCESS)
      .filter(([, access]) => access.who === "user" && access.args?.(fx).testId === fx.testId)
      .map(([name]) => name)
      .sort();
    expect(takingTestId).toEqual(Object.keys(TEAM_TEST_ACCESS).sort());
  });

  test("team test axis: owners and members act, viewers read, outsiders and removed members are refused at once", async () => {
    const rank: Record<TeamRole, number> = { viewer: 0, member: 1, owner: 2 };
    const functions = await publicFunctions();
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const [name, teamAccess] of Object.entries(TEAM_TEST_ACCESS)) {
      const fn = functions.get(name)!;
      const access = ACCESS[name];
      if (access.who !== "user" || !access.args) throw new Error(`${name} takes no test`);
      for (const caller of TEAM_AXIS) {
        // A fresh team and test per call: an allowed call may cancel or delete the test.
        const fx = await teamTestFixture(createBackend());
        const code = await errorCode(
          call(fx.callers[caller], name, fn, access.args({ testId: fx.testId, responseId: fx.responseId } as Fixture)),
        );
        const refused = code === "FORBIDDEN" || code === "NOT_FOUND" || code === "UNAUTHENTICATED";
        outcomes.push(`${name} ${caller}: ${refused ? `refused (${code})` : "allowed"}`);
        const outside = caller === "outsider" || caller === "removed member";
        const allowed =
          "starter" in teamAccess ? caller === "member" : !outside && rank[caller] >= rank[teamAccess.minimum];
        expected.push(
          `${name} ${caller}: ${allowed ? "allowed" : `refused (${outside || "starter" in teamAccess ? "NOT_FOUND" : "FORBIDDEN"})`}`,
        );
      }
    }
    expect(outcomes).toEqual(expected);
    // A fresh backend per function × caller: about a hundred of them.
  }, 60_000);
});
