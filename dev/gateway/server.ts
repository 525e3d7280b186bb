/**
 * dev/gateway — an OpenAI-compatible model gateway in OpenRouter's shape, on
 * loopback, for the offline stack, tests and benchmarks (ARCHITECTURE §7).
 *
 *   GET  /api/v1/models            the catalog (catalog.ts), no auth, like OpenRouter
 *   POST /api/v1/chat/completions  deterministic replies (replies.ts), bearer auth; with
 *                                  `"stream": true` streamed, and cancelled when the client
 *                                  disconnects (streaming.ts: what is modelled and billed)
 *   GET  /api/v1/key               key check in OpenRouter's shape, bearer auth
 *   GET  /__settings               current settings
 *   POST /__settings               JSON merge into the settings (faults and judgeProfiles merge per key)
 *   GET  /api/v1/generation?id=    an ended generation's metadata (cost, tokens, cancelled)
 *   GET  /api/v1/generation/content?id=  its prompt and completion (OpenRouter's stored content)
 *   GET  /__stats                  call counters;  DELETE /__stats resets them
 *
 * Run alone: `npx tsx dev/gateway/server.ts` (PORT, GATEWAY_API_KEY,
 * GATEWAY_LATENCY_SCALE, GATEWAY_SEED, GATEWAY_MAX_CONCURRENT from the environment).
 * With maxConcurrent set, a chat call beyond that many at once is answered 429 with Retry-After.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { listenTracked } from "../http";
import { catalog, findCatalogModel, toOpenRouterModel, type JudgeProfile } from "./catalog";
import { createRandom, unitFromStrings } from "./random";
import { malformedContent } from "./answerWriting";
import { messageText, promptParts, type ChatMessage } from "./replies";
import { type GatewayFaults, type GatewaySettings, mergeSettings } from "./settings";
import { DEFAULT_REPEAT_VARIANCE, requestSeedOf } from "./repeatVariance";
import { HttpError, isRecord } from "./input";
import {
  bearerToken,
  drawFault,
  estimateTokens,
  parseMessages,
  readJson,
  replyContent,
  sendError,
  sendJson,
  type Fault,
} from "./requests";
import {
  addBill,
  costOf,
  generationId,
  noBill,
  openStream,
  streamReply,
  usageOf,
  type Billed,
  type Reply,
} from "./streaming";

/** Generations kept for GET /generation (the newest). */
const KEPT_GENERATIONS = 50_000;

/** A generation that ended, as GET /generation and /generation/content tell it. */
type StoredGeneration = {
  model: string;
  messages: ChatMessage[];
  /** The whole completion; empty for a stopped one. */
  completion: string;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** Stopped when its client left (streamed, with a provider that stops). */
  cancelled: boolean;
  finishReason: string;
  streamed: boolean;
  createdAt: number;
  latencyMs: number;
};

/** OpenRouter's GET /generation `data`. */
function generationMetadata(id: string, generation: StoredGeneration) {
  return {
    id,
    model: generation.model,
    created_at: new Date(generation.createdAt * 1000).toISOString(),
    total_cost: generation.costUsd,
    streamed: generation.streamed,
    cancelled: generation.cancelled,
    finish_reason: generation.finishReason,
    native_finish_reason: generation.finishReason,
    tokens_prompt: generation.promptTokens,
    tokens_completion: generation.completionTokens,
    native_tokens_prompt: generation.promptTokens,
    native_tokens_completion: generation.completionTokens,
    latency: generation.latencyMs,
    generation_time: generation.latencyMs,
  };
}

/** OpenRouter's GET /generation/content `data`. */
function generationContent(generation: StoredGeneration) {
  return { input: { messages: generation.messages }, output: { completion: generation.completion, reasoning: null } };
}

export interface GatewayStats {
  /** Every POST to /chat/completions, whatever its outcome. */
  chatCalls: number;
  /**
   * By HTTP status sent ('200', '401', '429', …; a stream's error event counts as the status it
   * names, '500'), plus 'timeout' (held open) and 'aborted' (client left first).
   */
  byStatus: Record<string, number>;
  /** Successful replies by prompt kind: generation, ranking, rating, text. */
  byKind: Record<string, number>;
  /** Chat calls by model id. */
  byModel: Record<string, number>;
  /** Chat calls being answered now, the most at once so far, and those refused for maxConcurrent. */
  inFlight: number;
  maxInFlight: number;
  overLimit: number;
  /**
   * Generations run to their end and billed in full: answered, or non-streamed and left by their
   * client (the provider finishes and bills those).
   */
  completed: number;
  /** Streams their client closed before the end: stopped there, billed for what was processed (streaming.ts). */
  cancelled: number;
  /** What the provider billed for each. */
  billed: { completed: Billed; cancelled: Billed };
  /**
   * With `logCompletions`: when each request was completed, by its identity (model, messages,
   * seed), so a bench can tell a request completed twice and when its first completion came.
   */
  completionTimes: Map<string, number[]> | null;
}

export interface GatewayOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  apiKey?: string;
  latencyScale?: number;
  fixedLatencyMs?: number | null;
  faults?: Partial<GatewayFaults>;
  answerShortfall?: number;
  seed?: number;
  /** Quality SD between repeated runs of a cell (repeatVariance.ts); default DEFAULT_REPEAT_VARIANCE. */
  repeatVariance?: number;
  plantedJudges?: boolean;
  judgeProfiles?: Record<string, Partial<JudgeProfile>>;
  maxConcurrent?: number | null;
  retryAfterSeconds?: number;
  stopsOnDisconnect?: boolean;
  /** Keeps stats.completionTimes (off by default: a long dev session would grow it without end). */
  logCompletions?: boolean;
}

export interface RunningGateway {
  /** Base URL for an OpenAI-compatible client, e.g. http://127.0.0.1:PORT/api/v1 */
  url: string;
  port: number;
  /** Live settings: change them at any time, or POST /__settings from another process. */
  settings: GatewaySettings;
  stats: GatewayStats;
  close(): Promise<void>;
}

export const DEFAULT_GATEWAY_API_KEY = "dev-gateway-key";

function emptyStats(logCompletions: boolean): GatewayStats {
  return {
    chatCalls: 0,
    byStatus: {},
    byKind: {},
    byModel: {},
    inFlight: 0,
    maxInFlight: 0,
    overLimit: 0,
    completed: 0,
    cancelled: 0,
    billed: { completed: noBill(), cancelled: noBill() },
    completionTimes: logCompletions ? new Map() : null,
  };
}

/** A request's identity: the same call made again has the same model, messages and seed. */
function requestIdentity(body: Record<string, unknown>, modelId: string, messages: readonly ChatMessage[]): string {
  return createHash("sha256")
    .update(JSON.stringify([modelId, messages.map(messageText), requestSeedOf(body) ?? null]))
    .digest("base64");
}

function increment(counter: Record<string, number>, key: string): void {
  counter[key] = (counter[key] ?? 0) + 1;
}

export async function startGateway(options: GatewayOptions = {}): Promise<RunningGateway> {
  const host = options.host ?? "127.0.0.1";
  const settings: GatewaySettings = {
    apiKey: DEFAULT_GATEWAY_API_KEY,
    latencyScale: 1,
    fixedLatencyMs: null,
    faults: { rate429: 0, rate500: 0, rateTimeout: 0, rateMalformed: 0 },
    answerShortfall: 0,
    seed: 1,
    repeatVariance: DEFAULT_REPEAT_VARIANCE,
    plantedJudges: true,
    judgeProfiles: {},
    maxConcurrent: null,
    retryAfterSeconds: 1,
    stopsOnDisconnect: true,
  };
  mergeSettings(settings, {
    ...(options.maxConcurrent !== undefined && { maxConcurrent: options.maxConcurrent }),
    ...(options.retryAfterSeconds !== undefined && { retryAfterSeconds: options.retryAfterSeconds }),
    ...(options.stopsOnDisconnect !== undefined && { stopsOnDisconnect: options.stopsOnDisconnect }),
    ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
    ...(options.latencyScale !== undefined && { latencyScale: options.latencyScale }),
    ...(options.fixedLatencyMs !== undefined && { fixedLatencyMs: options.fixedLatencyMs }),
    ...(options.faults !== undefined && { faults: options.faults }),
    ...(options.answerShortfall !== undefined && { answerShortfall: options.answerShortfall }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.repeatVariance !== undefined && { repeatVariance: options.repeatVariance }),
    ...(options.plantedJudges !== undefined && { plantedJudges: options.plantedJudges }),
    ...(options.judgeProfiles !== undefined && { judgeProfiles: options.judgeProfiles }),
  });
  const stats = emptyStats(options.logCompletions === true);
  const countCompleted = (body: Record<string, unknown>, modelId: string, messages: readonly ChatMessage[]) => {
    stats.completed++;
    if (stats.completionTimes === null) return;
    const identity = requestIdentity(body, modelId, messages);
    const times = stats.completionTimes.get(identity);
    if (times) times.push(Date.now());
    else stats.completionTimes.set(identity, [Date.now()]);
  };

  // Fault draws come from one seeded stream, restarted whenever the seed changes.
  let faultSeed = settings.seed;
  let faultRandom = createRandom(settings.seed ^ 0x5eed);
  const nextFault = (): Fault => {
    if (settings.seed !== faultSeed) {
      faultSeed = settings.seed;
      faultRandom = createRandom(settings.seed ^ 0x5eed);
    }
    return drawFault(faultRandom, settings.faults);
  };

  const timers = new Set<NodeJS.Timeout>();

  /**
   * Each generation that ended (run to its end, or stopped by its client's leaving), by its id,
   * as OpenRouter keeps them for GET /generation and /generation/content; the oldest go beyond
   * KEPT_GENERATIONS (a long dev session).
   */
  const generations = new Map<string, StoredGeneration>();
  const keepGeneration = (id: string, generation: StoredGeneration) => {
    generations.set(id, generation);
    if (generations.size > KEPT_GENERATIONS) generations.delete(generations.keys().next().value!);
  };

  /** Waits `ms` whether or not the client is still there (a provider that does not stop). */
  const holdFor = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (ms <= 0) return resolve(true);
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve(true);
      }, ms);
      timers.add(timer);
    });

  /** Waits `ms`, or less if the client goes away; resolves whether the client is still there. */
  const waitFor = (ms: number, res: ServerResponse): Promise<boolean> =>
    new Promise((resolve) => {
      if (res.destroyed) return resolve(false);
      if (ms <= 0) return resolve(true);
      const onClose = () => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.off("close", onClose);
        resolve(!res.destroyed);
      }, ms);
      timers.add(timer);
      res.once("close", onClose);
    });

  async function handleChat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.chatCalls++;
    const respond = (status: number, message: string, headers?: Record<string, string>) => {
      increment(stats.byStatus, String(status));
      sendError(res, status, message, headers);
    };

    if (bearerToken(req) !== settings.apiKey) return respond(401, "No auth credentials found");

    let body: unknown;
    let messages: ChatMessage[];
    try {
      body = await readJson(req);
      if (!isRecord(body)) throw new HttpError(400, "Request body must be a JSON object");
      if (typeof body.model !== "string" || body.model === "") throw new HttpError(400, "model is required");
      messages = parseMessages(body.messages);
    } catch (error) {
      if (error instanceof HttpError) return respond(error.status, error.message);
      throw error;
    }
    const model = findCatalogModel(body.model);
    increment(stats.byModel, body.model);
    if (!model) return respond(404, `Model ${body.model} not found`);

    // Over the concurrency limit: refused at once, as a real gateway does, with when to come back.
    if (settings.maxConcurrent !== null && stats.inFlight >= settings.maxConcurrent) {
      stats.overLimit++;
      return respond(429, "Rate limit exceeded: too many concurrent requests", {
        "retry-after": String(settings.retryAfterSeconds),
      });
    }
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      await answerChat(res, body, model, messages, respond);
    } finally {
      stats.inFlight--;
    }
  }

  async function answerChat(
    res: ServerResponse,
    body: Record<string, unknown>,
    model: NonNullable<ReturnType<typeof findCatalogModel>>,
    messages: ChatMessage[],
    respond: (status: number, message: string, headers?: Record<string, string>) => void,
  ): Promise<void> {
    const fault = nextFault();
    if (fault === "429") {
      return respond(429, "Rate limit exceeded: too many requests, retry shortly", { "retry-after": "1" });
    }
    const streamed = body.stream === true;
    const created = Math.floor(Date.now() / 1000);
    const id = generationId(created);
    if (fault === "timeout") {
      // Never answer: the client's own time-out ends it; close() destroys the socket.
      increment(stats.byStatus, "timeout");
      if (streamed) openStream(res, id);
      return;
    }

    const parts = promptParts(messages);
    const jitter = 0.8 + 0.4 * unitFromStrings("latency", model.id, parts.system, parts.user, String(settings.seed));
    const latency = settings.fixedLatencyMs ?? model.latencyMs * settings.latencyScale * jitter;
    const promptTokens = estimateTokens(messages.map(messageText).join("\n"));
    let kind = "text";
    const write = (): Reply => {
      const reply = replyContent(model, messages, settings, requestSeedOf(body));
      kind = reply.kind;
      let content = fault === "malformed" ? malformedContent(reply.content) : reply.content;
      let finishReason = "stop";
      const maxTokens =
        typeof body.max_tokens === "number" && body.max_tokens > 0 ? Math.floor(body.max_tokens) : undefined;
      if (maxTokens !== undefined && estimateTokens(content) > maxTokens) {
        content = content.slice(0, maxTokens * 4);
        finishReason = "length";
      }
      return { content, finishReason, promptTokens, completionTokens: estimateTokens(content) };
    };

    const started = Date.now();
    const keep = (reply: Pick<Reply, "content" | "completionTokens" | "finishReason">, cancelled: boolean) =>
      keepGeneration(id, {
        model: model.id,
        messages,
        completion: reply.content,
        promptTokens,
        completionTokens: reply.completionTokens,
        costUsd: costOf(model, promptTokens, reply.completionTokens),
        cancelled,
        finishReason: reply.finishReason,
        streamed,
        createdAt: created,
        latencyMs: Date.now() - started,
      });

    if (streamed) {
      const end = await streamReply(
        res,
        { id, created, model, latencyMs: latency, upstreamFails: fault === "500" },
        write,
        (ms) => (settings.stopsOnDisconnect ? waitFor(ms, res) : holdFor(ms)),
      );
      if (end.kind === "completed") {
        const { promptTokens, completionTokens } = end.reply;
        increment(stats.byStatus, res.destroyed ? "aborted" : "200");
        increment(stats.byKind, kind);
        countCompleted(body, model.id, messages);
        addBill(stats.billed.completed, model, promptTokens, completionTokens);
        keep(end.reply, false);
      } else if (end.kind === "failed") {
        increment(stats.byStatus, "500");
        keep({ content: "", completionTokens: 0, finishReason: "error" }, false);
      } else {
        increment(stats.byStatus, "aborted");
        stats.cancelled++;
        addBill(stats.billed.cancelled, model, promptTokens, end.completionTokens);
        keep({ content: "", completionTokens: end.completionTokens, finishReason: "cancelled" }, true);
      }
      return;
    }

    const stillThere = await waitFor(latency, res);
    if (!stillThere) {
      increment(stats.byStatus, "aborted");
      // A non-streamed generation runs on without its client and is billed in full.
      if (fault !== "500") {
        const reply = write();
        countCompleted(body, model.id, messages);
        addBill(stats.billed.completed, model, promptTokens, reply.completionTokens);
        keep(reply, false);
      }
      return;
    }
    if (fault === "500") return respond(500, "Internal Server Error: the upstream provider failed");

    const reply = write();
    increment(stats.byStatus, "200");
    increment(stats.byKind, kind);
    countCompleted(body, model.id, messages);
    addBill(stats.billed.completed, model, reply.promptTokens, reply.completionTokens);
    keep(reply, false);
    sendJson(res, 200, {
      id,
      provider: model.id.split("/")[0],
      object: "chat.completion",
      created,
      model: model.id,
      choices: [
        {
          index: 0,
          logprobs: null,
          message: { role: "assistant", content: reply.content },
          finish_reason: reply.finishReason,
          native_finish_reason: reply.finishReason,
        },
      ],
      usage: usageOf(model, reply),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("access-control-allow-headers", "authorization, content-type, http-referer, x-title");
    res.setHeader("access-control-allow-methods", "GET, POST, DELETE, OPTIONS");
    const path = new URL(req.url ?? "/", "http://gateway").pathname.replace(/\/+$/, "") || "/";
    const route = `${req.method ?? "GET"} ${path}`;

    if (req.method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    switch (route) {
      case "GET /api/v1/models":
        return sendJson(res, 200, { data: catalog.map(toOpenRouterModel) });
      case "POST /api/v1/chat/completions":
        return handleChat(req, res);
      case "GET /api/v1/key":
        if (bearerToken(req) !== settings.apiKey) return sendError(res, 401, "No auth credentials found");
        return sendJson(res, 200, {
          data: {
            label: "dev-gateway",
            usage: 0,
            limit: null,
            limit_remaining: null,
            is_free_tier: false,
            rate_limit: { requests: 1000, interval: "10s" },
          },
        });
      case "GET /api/v1/generation":
      case "GET /api/v1/generation/content": {
        if (bearerToken(req) !== settings.apiKey) return sendError(res, 401, "No auth credentials found");
        const id = new URL(req.url ?? "/", "http://gateway").searchParams.get("id") ?? "";
        const generation = generations.get(id);
        if (!generation) return sendError(res, 404, `Generation ${id} not found`);
        return sendJson(res, 200, {
          data: path.endsWith("/content") ? generationContent(generation) : generationMetadata(id, generation),
        });
      }
      case "GET /__settings":
        return sendJson(res, 200, settings);
      case "POST /__settings":
        return sendJson(res, 200, mergeSettings(settings, await readJson(req)));
      case "GET /__stats":
        return sendJson(res, 200, stats);
      case "DELETE /__stats":
        Object.assign(stats, emptyStats(options.logCompletions === true));
        return sendJson(res, 200, stats);
      default:
        return sendError(res, 404, `Not found: ${route}`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) return sendError(res, error.status, error.message);
      console.error("[dev/gateway]", error);
      sendError(res, 500, "Internal Server Error");
    });
  });
  const listening = await listenTracked(server, host, options.port ?? 0);

  return {
    url: `${listening.origin}/api/v1`,
    port: listening.port,
    settings,
    stats,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      // Held-open ("timeout") requests and keep-alive sockets must not delay shutdown.
      return listening.close();
    },
  };
}

async function main(): Promise<void> {
  const gateway = await startGateway({
    port: Number(process.env.PORT ?? 8787),
    apiKey: process.env.GATEWAY_API_KEY ?? DEFAULT_GATEWAY_API_KEY,
    latencyScale: process.env.GATEWAY_LATENCY_SCALE ? Number(process.env.GATEWAY_LATENCY_SCALE) : 1,
    seed: process.env.GATEWAY_SEED ? Number(process.env.GATEWAY_SEED) : 1,
    maxConcurrent: process.env.GATEWAY_MAX_CONCURRENT ? Number(process.env.GATEWAY_MAX_CONCURRENT) : null,
  });
  console.log(
    `dev gateway: ${gateway.url}  (key ${gateway.settings.apiKey}; settings at ${gateway.url.replace("/api/v1", "/__settings")})`,
  );
  const stop = () => void gateway.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main();
}
