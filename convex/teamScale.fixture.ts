// A team of any size among any number of other teams, each with its tests and payments, and the
// documents each query of the team's pages reads (two dots in the name: Convex does not deploy
// this file). For convex/teamScale.test.ts and bench/team-reads.ts.
import type { TestConvex } from "convex-test";
import { TransactionMetricsTracker } from "convex-test/dist/transactionMetrics.js";
import { api } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { seedFinishedTest, type Runner } from "./finishedTests.fixture";
import { TEAM_LIMITS } from "./lib/teams";
import { recordPurchase } from "./core/payments";
import { syncTestSummaryOf } from "./core/testSummaries";
import type schema from "./schema";

export type Backend = TestConvex<typeof schema>;

/** Tests of the measured team: a fixed number, so what changes is only the teams and members around them. */
export const TEAM_TESTS = 12;
export const TESTS_PER_OTHER_TEAM = 12;
export const PERSONAL_TESTS_PER_MEMBER = 2;
/** Members of the measured team who also belong to each other team. */
const SHARED_MEMBERS_PER_OTHER_TEAM = 2;
/** Rows inserted per transaction. */
const CHUNK = 100;

export interface Scale {
  /** Teams in the deployment, the measured one included. */
  teams: number;
  /** Members of the measured team, its owner included. */
  members: number;
  /** The measured team's tests (TEAM_TESTS unless given), each paid by the member who started it. */
  teamTests?: number;
}

export interface TeamScene {
  teamId: Id<"teams">;
  /** The measured team's owner, who looks at its pages. */
  as: ReturnType<Backend["withIdentity"]>;
  /** A finished team test with answers, judgements and statistics: what the results page reads. */
  resultsTestId: Id<"tests">;
  /** The team's running test (answers, judgements, statistics so far): what the monitor shows. */
  runningTestId: Id<"tests">;
  /** Members who paid for the team's tests: the rows the spend summary lists. */
  payers: number;
}

// ------------------------------------------------------------------ counting reads

let documentsRead = 0;
let counting = false;

/** Counts every document a function reads, as convex-test's limit tracker sees them (once per process). */
function installReadCounter() {
  if (counting) return;
  counting = true;
  const trackRead = TransactionMetricsTracker.prototype.trackRead;
  TransactionMetricsTracker.prototype.trackRead = function (this: TransactionMetricsTracker, bytes: number) {
    documentsRead++;
    trackRead.call(this, bytes);
  };
}

/** The documents read while `run` runs (one query: its function and the caller's user and session). */
export async function readsOf<T>(run: () => Promise<T>): Promise<{ reads: number; value: T }> {
  installReadCounter();
  documentsRead = 0;
  const value = await run();
  return { reads: documentsRead, value };
}

// ------------------------------------------------------------------ building the scene

type TestFields = Omit<Doc<"tests">, "_id" | "_creationTime">;

async function insertUsers(t: Backend, prefix: string, count: number): Promise<Id<"users">[]> {
  const ids: Id<"users">[] = [];
  for (let start = 0; start < count; start += CHUNK) {
    ids.push(
      ...(await t.run(async (ctx) => {
        const chunk: Id<"users">[] = [];
        for (let index = start; index < Math.min(count, start + CHUNK); index++) {
          chunk.push(await ctx.db.insert("users", { email: `${prefix}-${index}@example.com`, testCount: 0 }));
        }
        return chunk;
      })),
    );
  }
  return ids;
}

/** A test like the template (configuration, counters, summary) for another starter, space and status. */
async function insertTest(
  ctx: MutationCtx,
  template: TestFields,
  place: { userId: Id<"users">; teamId?: Id<"teams">; status: Doc<"tests">["status"]; name: string },
): Promise<Id<"tests">> {
  const { teamId: _teamId, completedAt, ...fields } = template;
  const testId = await ctx.db.insert("tests", {
    ...fields,
    userId: place.userId,
    ...(place.teamId === undefined ? {} : { teamId: place.teamId }),
    status: place.status,
    name: place.name,
    ...(place.status === "running" || completedAt === undefined ? {} : { completedAt }),
  });
  await syncTestSummaryOf(ctx, testId);
  return testId;
}

/** The test's payment by its starter, settled as Stripe's would be (the team's spend counters move). */
async function payFor(ctx: MutationCtx, testId: Id<"tests">, amountCents: number) {
  const test = (await ctx.db.get("tests", testId))!;
  const paymentId = await ctx.db.insert("payments", {
    userId: test.userId,
    testId,
    ...(test.teamId === undefined ? {} : { teamId: test.teamId }),
    testName: test.name,
    amountCents,
    currency: "usd",
    status: "pending",
  });
  await recordPurchase(ctx, (await ctx.db.get("payments", paymentId))!, amountCents);
}

async function insertTeam(ctx: MutationCtx, name: string, owner: Id<"users">, tests: number) {
  return await ctx.db.insert("teams", {
    name,
    createdBy: owner,
    updatedAt: Date.now(),
    testCount: tests,
    completedTestCount: tests - 1,
  });
}

/**
 * The measured team (its owner, `members - 1` members, its tests each paid by whoever started it,
 * one of them running) and around it `teams - 1` other teams, each with its own owner, two of the
 * measured team's members, the measured team's owner as a viewer (up to the 50 teams a user may
 * join), tests and payments; every member of the measured team also has personal tests.
 */
export async function buildTeamScene(t: Backend, scale: Scale): Promise<TeamScene> {
  const teamTests = scale.teamTests ?? TEAM_TESTS;
  const members = await insertUsers(t, "member", scale.members);
  const owner = members[0]!;
  const resultsTestId = await seedFinishedTest(t as unknown as Runner, {
    userId: owner,
    responses: 16,
    evaluationsPerResponse: 2,
    name: "Team results",
  });
  const monitoredTestId = await seedFinishedTest(t as unknown as Runner, {
    userId: members[1 % scale.members]!,
    responses: 16,
    evaluationsPerResponse: 2,
    name: "Team running",
    status: "running",
  });
  const template = await t.run(async (ctx) => {
    const { _id, _creationTime, ...fields } = (await ctx.db.get("tests", resultsTestId))!;
    return fields;
  });

  const teamId = await t.run(async (ctx) => {
    const teamId = await insertTeam(ctx, "Measured team", owner, teamTests);
    await ctx.db.patch("tests", resultsTestId, { teamId });
    await syncTestSummaryOf(ctx, resultsTestId);
    await payFor(ctx, resultsTestId, 200);
    await ctx.db.patch("tests", monitoredTestId, { teamId });
    await syncTestSummaryOf(ctx, monitoredTestId);
    await payFor(ctx, monitoredTestId, 201);
    return teamId;
  });
  for (let start = 0; start < scale.members; start += CHUNK) {
    await t.run(async (ctx) => {
      for (let index = start; index < Math.min(scale.members, start + CHUNK); index++) {
        await ctx.db.insert("memberships", { teamId, userId: members[index]!, role: index === 0 ? "owner" : "member" });
      }
    });
  }
  for (let start = 2; start < teamTests; start += CHUNK) {
    await t.run(async (ctx) => {
      for (let index = start; index < Math.min(teamTests, start + CHUNK); index++) {
        const testId = await insertTest(ctx, template, {
          userId: members[index % scale.members]!,
          teamId,
          status: "completed",
          name: `Team test ${index}`,
        });
        await payFor(ctx, testId, 200 + index);
      }
    });
  }

  const others = await insertUsers(t, "other-owner", scale.teams - 1);
  for (let team = 0; team < scale.teams - 1; team++) {
    await t.run(async (ctx) => {
      const otherOwner = others[team]!;
      const otherTeam = await insertTeam(ctx, `Other team ${team}`, otherOwner, TESTS_PER_OTHER_TEAM);
      await ctx.db.insert("memberships", { teamId: otherTeam, userId: otherOwner, role: "owner" });
      const joined = new Set<Id<"users">>();
      for (let shared = 0; shared < SHARED_MEMBERS_PER_OTHER_TEAM && scale.members > 1; shared++) {
        const member = members[1 + ((team * SHARED_MEMBERS_PER_OTHER_TEAM + shared) % (scale.members - 1))]!;
        if (joined.has(member)) continue;
        joined.add(member);
        await ctx.db.insert("memberships", { teamId: otherTeam, userId: member, role: "member" });
      }
      if (team < TEAM_LIMITS.teamsPerUser - 1)
        await ctx.db.insert("memberships", { teamId: otherTeam, userId: owner, role: "viewer" });
      const starters = [otherOwner, ...joined];
      for (let index = 0; index < TESTS_PER_OTHER_TEAM; index++) {
        const testId = await insertTest(ctx, template, {
          userId: starters[index % starters.length]!,
          teamId: otherTeam,
          status: index % 6 === 0 ? "running" : "completed",
          name: `Other ${team} test ${index}`,
        });
        await payFor(ctx, testId, 300 + index);
      }
    });
  }
  for (let start = 0; start < scale.members; start += CHUNK / PERSONAL_TESTS_PER_MEMBER) {
    await t.run(async (ctx) => {
      for (let index = start; index < Math.min(scale.members, start + CHUNK / PERSONAL_TESTS_PER_MEMBER); index++) {
        for (let personal = 0; personal < PERSONAL_TESTS_PER_MEMBER; personal++) {
          await insertTest(ctx, template, {
            userId: members[index]!,
            status: personal === 0 ? "running" : "completed",
            name: `Personal ${index}.${personal}`,
          });
        }
      }
    });
  }

  const sessionId = await t.run((ctx) =>
    ctx.db.insert("authSessions", { userId: owner, expirationTime: Date.now() + 3_600_000 }),
  );
  return {
    teamId,
    as: t.withIdentity({ subject: `${owner}|${sessionId}` }),
    resultsTestId,
    runningTestId: monitoredTestId,
    payers: Math.min(scale.members, teamTests),
  };
}

// ------------------------------------------------------------------ what the team's pages read

/** The queries of the team's pages, as its owner calls them. */
export const TEAM_QUERIES = {
  "history.list": (scene: TeamScene) => scene.as.query(api.history.list, { teamId: scene.teamId }),
  "results.get": (scene: TeamScene) => scene.as.query(api.results.get, { testId: scene.resultsTestId }),
  "results.juryStats": (scene: TeamScene) => scene.as.query(api.results.juryStats, { testId: scene.resultsTestId }),
  "payments.testRefund": (scene: TeamScene) => scene.as.query(api.payments.testRefund, { testId: scene.resultsTestId }),
  "reviews.pair": (scene: TeamScene) => scene.as.query(api.reviews.pair, { testId: scene.resultsTestId }),
  "reviews.summary": (scene: TeamScene) => scene.as.query(api.reviews.summary, { testId: scene.resultsTestId }),
  "tests.current": (scene: TeamScene) => scene.as.query(api.tests.current, { teamId: scene.teamId }),
  "tests.monitor": (scene: TeamScene) => scene.as.query(api.tests.monitor, { testId: scene.runningTestId }),
  "dashboard.home": (scene: TeamScene) => scene.as.query(api.dashboard.home, { teamId: scene.teamId }),
  "billing.teamSpend": (scene: TeamScene) => scene.as.query(api.billing.teamSpend, { teamId: scene.teamId }),
} as const;

export type TeamQuery = keyof typeof TEAM_QUERIES;

/** Documents each query reads; the spend summary's also without its listed members' own rows (their spend row and user). */
export async function teamReads(scene: TeamScene) {
  const reads = {} as Record<TeamQuery, number>;
  for (const [name, run] of Object.entries(TEAM_QUERIES) as [TeamQuery, (scene: TeamScene) => Promise<unknown>][]) {
    reads[name] = (await readsOf(() => run(scene))).reads;
  }
  return { reads, teamSpendBeyondMembers: reads["billing.teamSpend"] - 2 * scene.payers };
}
