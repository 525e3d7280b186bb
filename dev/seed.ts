/**
 * Demo data for the offline stack, made through the real functions: the model catalog from
 * the dev gateway, a demo user and an admin, the demo user's personas, topics and a saved
 * template, and one completed test that went through checkout at the dev Stripe and the
 * scheduled pipeline against the dev gateway. Running it again against the same backend
 * adds nothing twice.
 */

import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import type { MutationCtx } from "../convex/_generated/server";
import { BUILTIN_TEMPLATES, templateDataOf } from "../convex/lib/builtins";
import type { TestConfiguration } from "../convex/validators";
import type { RunningBackend } from "./backend/server";
import type { RunningGateway } from "./gateway/server";
import type { RunningMail } from "./mail/server";
import type { startStripe } from "./stripe/server";

export interface Credentials {
  email: string;
  password: string;
}

export const DEMO_ACCOUNT: Readonly<Credentials> = { email: "demo@modeljury.dev", password: "tasting-panel-123" };
export const ADMIN_ACCOUNT: Readonly<Credentials> = { email: "admin@modeljury.dev", password: "head-juror-123" };
/**
 * The passwords these accounts had before a password could not contain the email's local part
 * ("demo-password-123"): a kept store's accounts are moved to today's on the next start.
 */
const FORMER_PASSWORDS: Readonly<Record<string, string>> = {
  [DEMO_ACCOUNT.email]: "demo-password-123",
  [ADMIN_ACCOUNT.email]: "admin-password-123",
};

const DEMO_FULL_NAME = "Demo User";
const TEST_TIMEOUT_MS = 90_000;

const PERSONAS = [
  {
    name: "Friendly Support Agent",
    description: "Warm, patient first-line support who keeps answers short and practical.",
    systemPrompt:
      "You are a first-line customer support agent for a subscription software company. You are warm and " +
      "patient, you acknowledge the customer's frustration in one sentence at most, and then you give clear, " +
      "numbered steps that solve the problem. Use plain words, no jargon, no blame. Never promise refunds, " +
      "credits or dates you cannot guarantee; say what happens next and how the customer can reach a person.",
  },
  {
    name: "Senior Technical Writer",
    description: "Precise documentation voice: accurate, structured, and explicit about edge cases.",
    systemPrompt:
      "You are a senior technical writer. You write accurate, well-structured explanations for a technical " +
      "audience: start with a one-sentence summary, then the details in short sections with headings, then " +
      "the edge cases and limits. Prefer concrete examples over adjectives. If something depends on " +
      "configuration, say which setting and what its default is. Do not pad the text.",
  },
  {
    name: "Plain-Language Explainer",
    description: "Explains anything to a newcomer at a reading age of about twelve.",
    systemPrompt:
      "You explain things to people who have never heard of the subject. Use short sentences, everyday " +
      "words and one familiar comparison. Define any term you must use the first time it appears. Keep the " +
      "whole answer under 150 words and end with the one thing the reader should remember.",
  },
];

const TOPICS = [
  {
    title: "A failed card payment",
    description: "A customer's renewal failed and their workspace is about to be locked.",
    prompt:
      'A customer writes: "My card was declined for the yearly renewal and now I see a banner saying my ' +
      'workspace will be locked in 3 days. We have a client demo on Friday. What do I do?" Write the reply.',
  },
  {
    title: "Data retention after cancelling",
    description: "What happens to a team's data when they cancel their plan.",
    prompt:
      "Explain what happens to a team's projects, files and audit logs when they cancel a paid plan: " +
      "projects become read-only for 30 days, then are deleted; files are deleted after 30 days; audit " +
      "logs are kept for 1 year for compliance. Admins can export everything before deletion.",
  },
  {
    title: "Two-factor authentication",
    description: "Why and how to turn on two-factor sign-in.",
    prompt:
      "Explain why a user should turn on two-factor authentication and how to do it: Settings → Security → " +
      "Two-factor authentication, scan the QR code with an authenticator app, enter the 6-digit code, and " +
      "store the 10 recovery codes somewhere safe.",
  },
];

/** Cheap, distinct models of the dev catalog: the demo test costs the $2.00 minimum. */
const PREFERRED_GENERATORS = ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku"];
// Two judges: one judge call per answer is too little evidence for an interval (issue 30).
const PREFERRED_EVALUATORS = ["google/gemini-2.0-flash-001", "meta-llama/llama-3.1-8b-instruct"];

type AnyT = RunningBackend["t"];
type Identity = ReturnType<AnyT["withIdentity"]>;

/** The backend's `t.run` with the app's schema types (its accessor is schema-agnostic). */
async function run<T>(t: AnyT, fn: (ctx: MutationCtx) => Promise<T>): Promise<T> {
  return (await t.run((ctx) => fn(ctx as unknown as MutationCtx) as never)) as T;
}

export interface SeedServers {
  backend: RunningBackend;
  gateway: RunningGateway;
  stripe: Awaited<ReturnType<typeof startStripe>>;
  /** Run the demo test through the pipeline (not against a real, paid gateway). Default true. */
  runDemoTest?: boolean;
  /** The dev mailbox, when the backend sends email there: sign-ups are verified with its codes. */
  mail?: RunningMail;
}

export interface SeedResult {
  demo: Credentials;
  admin: Credentials;
  demoUserId: Id<"users">;
  adminUserId: Id<"users">;
  completedTestId: Id<"tests"> | null;
}

export async function seedDemoData({
  backend,
  gateway,
  stripe,
  runDemoTest = true,
  mail,
}: SeedServers): Promise<SeedResult> {
  const { t } = backend;
  // The demo test should be done in a few seconds, whatever latency the stack runs with, yet
  // take long enough that its duration and latencies look like a real run's.
  const latencyScale = gateway.settings.latencyScale;
  gateway.settings.latencyScale = 0.05;
  try {
    await t.action(internal.models.refresh, {});
    const demoUserId = await ensureAccount(t, DEMO_ACCOUNT, mail);
    const adminUserId = await ensureAccount(t, ADMIN_ACCOUNT, mail);
    // The seeded path for admin rights (ADMIN_EMAILS needs a verified address; README "Admin rights").
    await t.mutation(internal.users.grantAdmin, { email: ADMIN_ACCOUNT.email });
    // A real auth session: the backend refuses a token whose session does not exist. A kept
    // store still has the one of the last start.
    const sessionId = await run(t, async (ctx) => {
      const sessions = await ctx.db
        .query("authSessions")
        .withIndex("userId", (q) => q.eq("userId", demoUserId))
        .collect();
      const live = sessions.find((session) => session.expirationTime > Date.now() + 600_000);
      return (
        live?._id ??
        (await ctx.db.insert("authSessions", { userId: demoUserId, expirationTime: Date.now() + 3_600_000 }))
      );
    });
    const demo = t.withIdentity({ subject: `${demoUserId}|${sessionId}`, email: DEMO_ACCOUNT.email });

    const profile = await demo.query(api.profile.get, {});
    if (profile.fullName === null)
      await demo.mutation(api.profile.update, { fullName: DEMO_FULL_NAME, avatarUrl: null });

    const personaIds = await ensurePersonas(demo);
    const topicIds = await ensureTopics(demo);
    await ensureTemplate(demo);
    const completedTestId =
      (await completedTestOf(t, demoUserId)) ??
      (runDemoTest ? await runPaidTest(t, demo, stripe.url, personaIds, topicIds, demoUserId) : null);
    await backend.settle();
    return { demo: { ...DEMO_ACCOUNT }, admin: { ...ADMIN_ACCOUNT }, demoUserId, adminUserId, completedTestId };
  } finally {
    gateway.settings.latencyScale = latencyScale;
  }
}

/** Signs the account up through @convex-dev/auth, or, when it exists, checks its password. */
async function ensureAccount(t: AnyT, { email, password }: Credentials, mail?: RunningMail): Promise<Id<"users">> {
  const existing = await userIdByEmail(t, email);
  const flow = existing === null ? "signUp" : "signIn";
  if (existing !== null) await moveFromFormerPassword(t, { email, password });
  let result = await t.action(api.auth.signIn, { provider: "password", params: { email, password, flow } });
  // With email on, the address is verified first, with the code the dev mailbox received.
  const code = !result.tokens && mail ? mail.latestCodeTo(email) : undefined;
  if (code)
    result = await t.action(api.auth.signIn, {
      provider: "password",
      params: { email, code, flow: "email-verification" },
    });
  if (!result.tokens) throw new Error(`Seeding: ${flow} for ${email} returned no session (is email verification on?)`);
  const userId = await userIdByEmail(t, email);
  if (userId === null) throw new Error(`Seeding: ${email} was not created`);
  return userId;
}

/** A kept store's account still on its former password is changed to today's, as its owner would. */
async function moveFromFormerPassword(t: AnyT, { email, password }: Credentials): Promise<void> {
  const former = FORMER_PASSWORDS[email];
  if (former === undefined) return;
  const old = await t
    .action(api.auth.signIn, { provider: "password", params: { email, password: former, flow: "signIn" } })
    .catch(() => null);
  const token = old?.tokens?.token;
  if (!token) return; // already on today's password
  const { sub } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sub: string };
  await t.withIdentity({ subject: sub, email }).action(api.profile.changePassword, {
    currentPassword: former,
    newPassword: password,
  });
}

async function userIdByEmail(t: AnyT, email: string): Promise<Id<"users"> | null> {
  return await run(t, async (ctx) => {
    const user = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .first();
    return user?._id ?? null;
  });
}

async function ensurePersonas(demo: Identity): Promise<Map<string, Id<"personas">>> {
  const ids = new Map<string, Id<"personas">>();
  for (const persona of (await demo.query(api.personas.list, {})).items) ids.set(persona.name, persona._id);
  for (const persona of PERSONAS) {
    if (!ids.has(persona.name)) ids.set(persona.name, await demo.mutation(api.personas.create, persona));
  }
  return ids;
}

async function ensureTopics(demo: Identity): Promise<Map<string, Id<"topics">>> {
  const ids = new Map<string, Id<"topics">>();
  for (const topic of (await demo.query(api.topics.list, {})).items) ids.set(topic.title, topic._id);
  for (const topic of TOPICS) {
    if (!ids.has(topic.title)) ids.set(topic.title, await demo.mutation(api.topics.create, topic));
  }
  return ids;
}

async function ensureTemplate(demo: Identity): Promise<void> {
  const builtin = BUILTIN_TEMPLATES.find((template) => template.category === "marketing") ?? BUILTIN_TEMPLATES[0];
  const name = `My ${builtin.name}`;
  const own = await demo.query(api.templates.listOwn, {});
  if (own.some((template) => template.name === name)) return;
  await demo.mutation(api.templates.create, {
    name,
    description: builtin.description,
    category: builtin.category,
    isPublic: false,
    tags: ["marketing", "copy"],
    templateData: templateDataOf(builtin),
  });
}

async function completedTestOf(t: AnyT, userId: Id<"users">): Promise<Id<"tests"> | null> {
  return await run(t, async (ctx) => {
    const test = await ctx.db
      .query("tests")
      .withIndex("by_user_status", (q) => q.eq("userId", userId).eq("status", "completed"))
      .first();
    return test?._id ?? null;
  });
}

function pickModels(
  available: Set<string>,
  preferred: string[],
  count: number,
  exclude: Set<string>,
): { id: string; name: string }[] {
  const picked = preferred.filter((id) => available.has(id) && !exclude.has(id));
  for (const id of available) {
    if (picked.length >= count) break;
    if (!picked.includes(id) && !exclude.has(id)) picked.push(id);
  }
  if (picked.length < count) throw new Error(`Seeding: the catalog has too few models (${available.size})`);
  return picked.slice(0, count).map((id) => ({ id, name: id }));
}

/** Creates a small test, pays for it at the dev Stripe and waits for the pipeline to finish it. */
async function runPaidTest(
  t: AnyT,
  demo: Identity,
  stripeUrl: string,
  personaIds: Map<string, Id<"personas">>,
  topicIds: Map<string, Id<"topics">>,
  userId: Id<"users">,
): Promise<Id<"tests">> {
  const catalog = await demo.query(api.models.list, {});
  const available = new Set(catalog.models.map((model) => model.id));
  const generatorModels = pickModels(available, PREFERRED_GENERATORS, 2, new Set());
  const evaluatorModels = pickModels(available, PREFERRED_EVALUATORS, 2, new Set(generatorModels.map((m) => m.id)));
  const [agent, writer] = PERSONAS;
  const [payment, retention] = TOPICS;
  const configuration: TestConfiguration = {
    name: "Support replies: tone and accuracy",
    taskType: "customer-service",
    userPrompt: "Answer as a reply the customer will read directly. Use only the facts given.",
    personas: [agent, writer].map((persona) => ({ id: String(personaIds.get(persona.name)), ...persona })),
    topics: [payment, retention].map((topic) => ({ id: String(topicIds.get(topic.title)), ...topic })),
    generatorModels,
    evaluatorModels,
    responsesPerTopic: 2,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: true, relevance: true, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: true },
  };
  const { testId, paymentRequired } = await demo.mutation(api.tests.create, { configuration });
  if (paymentRequired) {
    const { sessionId } = await demo.action(api.payments.createCheckout, { testId });
    // The dev Stripe posts the signed webhook to the backend before it redirects.
    const pay = await fetch(`${stripeUrl}/checkout/${encodeURIComponent(sessionId)}/pay`, {
      method: "POST",
      redirect: "manual",
    });
    await pay.arrayBuffer();
    if (pay.status !== 303) throw new Error(`Seeding: paying at the dev Stripe answered ${pay.status}`);
  }
  const deadline = Date.now() + TEST_TIMEOUT_MS;
  for (;;) {
    const test = await run(t, (ctx) => ctx.db.get("tests", testId));
    if (!test || test.userId !== userId) throw new Error("Seeding: the demo test disappeared");
    if (test.status === "completed") return testId;
    if (test.status === "failed" || test.status === "cancelled") {
      throw new Error(
        `Seeding: the demo test ended ${test.status}${test.errorMessage ? `: ${test.errorMessage}` : ""}`,
      );
    }
    if (Date.now() > deadline)
      throw new Error(`Seeding: the demo test is still ${test.status} after ${TEST_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
