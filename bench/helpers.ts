// What the benches share: the offline backend in front of a gateway, a signed-up bench user,
// signed-in WebSocket clients, the marking proxy, and the test configurations they run.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ConvexClient } from "convex/browser";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { DEFAULT_RANKING_PROMPT } from "../convex/lib/prompts";
import { startBackend } from "../dev/backend/server";
import { signedInClient as signedInAs } from "../dev/backend/testing";
import type { startGateway } from "../dev/gateway/server";
import { syncTestSummaryOf } from "../convex/core/testSummaries";

type Backend = Awaited<ReturnType<typeof startBackend>>;
type TestBackend = Backend["t"];
type Gateway = Awaited<ReturnType<typeof startGateway>>;

/** The backend, quiet, calling the gateway at `gatewayUrl` without retry back-off. */
export function startBenchBackend(gatewayUrl: string, dataDir?: string): Promise<Backend> {
  return startBackend({
    port: 0,
    sitePort: 0,
    quiet: true,
    dataDir,
    env: {
      GATEWAY_BASE_URL: gatewayUrl,
      OPENROUTER_API_KEY: "dev-gateway-key",
      GATEWAY_BACKOFF_SCALE: "0",
      AUTH_LOG_LEVEL: "ERROR",
    },
  });
}

/**
 * Fills the model catalog from the gateway (without its latency, which the run keeps) and
 * returns the first `count` model ids.
 */
export async function refreshCatalog(t: TestBackend, gateway: Gateway, count = 15): Promise<string[]> {
  const { fixedLatencyMs, latencyScale } = gateway.settings;
  gateway.settings.fixedLatencyMs = 0;
  gateway.settings.latencyScale = 0;
  await t.action(internal.models.refresh, {});
  Object.assign(gateway.settings, { fixedLatencyMs, latencyScale });
  return (await t.run(async (ctx) =>
    (await ctx.db.query("llmModels").take(count)).map((row) => row.modelId),
  )) as string[];
}

/** Signs the bench user up (password flow) and returns its ids and a caller acting as it. */
export async function signUpBenchUser(t: TestBackend) {
  await t.action(api.auth.signIn, {
    provider: "password",
    params: { email: "bench@modeljury.dev", password: "steady-runner-1", flow: "signUp" },
  });
  const { userId, sessionId } = (await t.run(async (ctx) => {
    const session = (await ctx.db.query("authSessions").first())!;
    return { userId: session.userId, sessionId: session._id };
  })) as { userId: Id<"users">; sessionId: string };
  return { userId, sessionId, as: t.withIdentity({ subject: `${userId}|${sessionId}` }) };
}

/** A WebSocket client signed in as `userId` in `sessionId` (dev/backend/testing.ts signs its token). */
export async function signedInClient(backend: Backend, userId: string, sessionId: string): Promise<ConvexClient> {
  return await signedInAs(backend, `${userId}|${sessionId}`);
}

/**
 * A proxy in front of the gateway that forwards every request and calls `onCall(index)` for each
 * one whose prompt names a bench test ('Bench test 3: …', see benchTestConfiguration).
 */
export async function startMarkingProxy(gatewayUrl: URL, onCall: (index: number) => void) {
  const proxy = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const marker = /Bench test (\d+):/.exec(body.toString("utf8"));
      if (marker) onCall(Number(marker[1]));
      const forwarded = httpRequest(
        {
          host: gatewayUrl.hostname,
          port: gatewayUrl.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (reply) => {
          outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(outgoing);
        },
      );
      forwarded.on("error", () => outgoing.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${gatewayUrl.pathname}`,
    close: () => proxy.close(),
  };
}

/**
 * A bench test of 10 generators (by default one of the largest: 5 judges, 10 personas); its prompt
 * names it for the proxy.
 */
export function benchTestConfiguration(
  index: number,
  models: readonly string[],
  {
    topics,
    responsesPerTopic,
    personas = 10,
    judges = 5,
    topicPrompt = (i: number) => `Scenario ${i}.`,
  }: {
    topics: number;
    responsesPerTopic: number;
    personas?: number;
    judges?: number;
    topicPrompt?: (index: number) => string;
  },
) {
  return {
    name: `Bench test ${index}`,
    taskType: "general",
    userPrompt: `Bench test ${index}: write a short product description.`,
    personas: Array.from({ length: personas }, (_, i) => ({
      id: `p${i}`,
      name: `Persona ${i}`,
      description: "A voice",
      systemPrompt: `You are writer ${i}.`,
    })),
    topics: topicsOf(topics, topicPrompt),
    generatorModels: models.slice(0, 10).map((id) => ({ id, name: id })),
    evaluatorModels: models.slice(10, 10 + judges).map((id) => ({ id, name: id })),
    responsesPerTopic,
    rankingPrompt: DEFAULT_RANKING_PROMPT,
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking" as const, includeExplanations: true },
  };
}

/** `count` topics 'Topic i' with the prompt `prompt(i)`. */
export function topicsOf(count: number, prompt: (index: number) => string = shopScenario) {
  return Array.from({ length: count }, (_, i) => ({
    id: `t${i}`,
    title: `Topic ${i}`,
    description: "A scenario",
    prompt: prompt(i),
  }));
}

/** The default topic prompt: a small shop scenario. */
export function shopScenario(index: number): string {
  return `Scenario ${index}: a small shop sells item ${index}.`;
}

/** At most `value` tests processing at once, then a dispatch: what a settled payment releases. */
export async function setMaxProcessing(t: TestBackend, value: number): Promise<void> {
  await t.run(async (ctx) => {
    const row = await ctx.db
      .query("settings")
      .withIndex("by_key", (q) => q.eq("key", "maxProcessingJobs"))
      .unique();
    if (row) await ctx.db.patch("settings", row._id as Id<"settings">, { value });
    else await ctx.db.insert("settings", { key: "maxProcessingJobs", value });
    await ctx.scheduler.runAfter(0, internal.runner.dispatch, {});
  });
}

/** Cancels the tests, so no worker outlives the backend. */
export async function cancelTests(t: TestBackend, testIds: readonly Id<"tests">[]): Promise<void> {
  await t.run(async (ctx) => {
    for (const testId of testIds) {
      await ctx.db.patch("tests", testId, { status: "cancelled" });
      await syncTestSummaryOf(ctx, testId);
    }
  });
}
