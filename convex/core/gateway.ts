// OpenAI-compatible gateway client (OpenRouter by default; Ollama, vLLM or the dev gateway
// work the same). Time-out (growing with the output asked for), attempts, 429 back-off (at
// least the gateway's Retry-After) and error texts follow spec part 1 §8-9. Chat completions
// are streamed (gatewayStream.ts): the time-out covers the whole answer, and an error event in
// the stream reads as the HTTP error it names.
import { env } from "../env";
import { withoutTrailingSlashes } from "../lib/text";
import { readCompletionStream, type CompletionUsage, type StreamedCompletion } from "./gatewayStream";

export const GATEWAY_TIMEOUT_MS = 30_000;
/**
 * The time-out grows with the output asked for: the base time-out for every this many tokens
 * of `max_tokens`, on top of the base (30 s base: 90 s for 2,000 tokens, 120 s for 3,000; real
 * models write 30-50 tokens a second).
 */
export const TOKENS_PER_BASE_TIMEOUT = 1_000;
export const GATEWAY_MAX_ATTEMPTS = 3;
export const DEFAULT_TEMPERATURE = 0.7;
export const INVALID_KEY_MESSAGE = "Invalid API key. Please check your OpenRouter API key configuration.";
export const MAX_RETRIES_MESSAGE = "Max retry attempts exceeded";

export class GatewayError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    /** Worth another attempt later (rate limit, server error, time-out). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "GatewayError";
  }
}

export type GatewayConfig = {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs?: number;
  maxAttempts?: number;
  /** Multiplies every back-off wait; tests use 0. */
  backoffScale?: number;
  /** Told of every exchange's outcome (the adaptive concurrency of the worker listens). */
  onExchange?: (event: ExchangeEvent) => void;
  /** Told a completion's generation id as soon as the gateway names it (before its answer). */
  onGeneration?: (generationId: string) => void;
};

/** One HTTP exchange with the gateway, as its caller may want to know it. */
export type ExchangeEvent =
  | { kind: "success"; latencyMs: number }
  | { kind: "rateLimited"; retryAfterMs?: number }
  | { kind: "timeout" }
  | { kind: "serverError" }
  | { kind: "other" };

/** The time-out of a request for up to `maxTokens` tokens of output. */
export function timeoutFor(config: Pick<GatewayConfig, "timeoutMs">, maxTokens = 0): number {
  const base = config.timeoutMs ?? GATEWAY_TIMEOUT_MS;
  return Math.round(base * (1 + Math.max(0, maxTokens) / TOKENS_PER_BASE_TIMEOUT));
}

/** A Retry-After header in ms: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMsOf(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type ChatResult = {
  content: string;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** What the gateway says it billed, in dollars (OpenRouter's `usage.cost`), where it says. */
  billedUsd?: number;
  latencyMs: number;
};

/** The deployment's gateway, or the caller's own key on the same base URL. */
export function gatewayConfig(ownKey?: string): GatewayConfig {
  return {
    baseUrl: withoutTrailingSlashes(env.gatewayBaseUrl()),
    apiKey: ownKey ?? env.gatewayApiKey(),
    backoffScale: env.gatewayBackoffScale(),
    timeoutMs: env.gatewayTimeoutMs(),
  };
}

function headers(config: GatewayConfig): Record<string, string> {
  return {
    "Content-Type": "application/json",
    ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}),
    "HTTP-Referer": env.siteUrl(),
    "X-Title": "ModelJury",
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorMessageOf(body: unknown): string | undefined {
  const error = (body as { error?: { message?: unknown } | string } | null)?.error;
  if (typeof error === "string") return error;
  return typeof error?.message === "string" ? error.message : undefined;
}

type Tell = (event: ExchangeEvent) => void;

/** The request sent, with the spec's texts for a time-out and a network error. */
async function send(config: GatewayConfig, path: string, init: RequestInit, signal: AbortSignal, tell: Tell) {
  try {
    return await fetch(`${config.baseUrl}${path}`, { ...init, headers: headers(config), signal });
  } catch (error) {
    throw lostConnection(error, signal, tell);
  }
}

/** A request that ended without its answer: timed out (our signal), or the connection failed. */
function lostConnection(error: unknown, signal: AbortSignal, tell: Tell): GatewayError {
  const timedOut = signal.aborted && signal.reason === TIMED_OUT;
  tell(timedOut ? { kind: "timeout" } : { kind: "other" });
  return new GatewayError(
    timedOut ? "Request timeout: the model gateway did not answer in time" : `Network error: ${String(error)}`,
    undefined,
    true,
  );
}

const TIMED_OUT = "gateway time-out";

/** The spec's error for an HTTP status that is not a success (and for a stream's error event carrying one). */
function statusError(status: number, message: string, retryAfter: string | null, tell: Tell): GatewayError {
  if (status === 401) {
    tell({ kind: "other" });
    return new GatewayError(INVALID_KEY_MESSAGE, 401, false);
  }
  if (status === 429) {
    const retryAfterMs = retryAfterMsOf(retryAfter);
    tell({ kind: "rateLimited", ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    const error = new GatewayError(`HTTP 429: rate limit exceeded`, 429, true);
    (error as GatewayError & { retryAfterSeconds?: number }).retryAfterSeconds =
      retryAfterMs === undefined ? undefined : retryAfterMs / 1000;
    return error;
  }
  tell(status >= 500 ? { kind: "serverError" } : { kind: "other" });
  return new GatewayError(`HTTP ${status}: ${message}`, status, status >= 500);
}

function parsedBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** A JSON body read whole: the error its status or its `error` field names, else the body. */
function jsonBodyOf(response: Response, text: string, started: number, tell: Tell): unknown {
  const body = parsedBody(text);
  if (!response.ok) {
    const message = errorMessageOf(body) ?? (text.slice(0, 300) || response.statusText);
    throw statusError(response.status, message, response.headers.get("retry-after"), tell);
  }
  tell({ kind: "success", latencyMs: Date.now() - started });
  if (body === null) throw new GatewayError("API request failed", response.status, true);
  const bodyError = errorMessageOf(body);
  if (bodyError !== undefined) throw new GatewayError(bodyError || "API request failed", response.status, true);
  return body;
}

/**
 * One HTTP exchange, read whole within the time-out (growing with `maxTokens`); throws
 * GatewayError with the spec's texts. `stream`: an event stream is read as it comes (a
 * non-streaming gateway's JSON answer is read as before).
 */
async function exchange(
  config: GatewayConfig,
  path: string,
  init: RequestInit,
  maxTokens?: number,
  stream = false,
): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutFor(config, maxTokens));
  const started = Date.now();
  const tell = (event: ExchangeEvent) => config.onExchange?.(event);
  try {
    const response = await send(config, path, init, controller.signal, tell);
    const named = response.headers.get("x-generation-id");
    if (named) config.onGeneration?.(named);
    const eventStream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    if (!(stream && response.ok && eventStream && response.body)) {
      const text = await response.text().catch((error: unknown) => {
        // The time-out covers the whole body too.
        if (controller.signal.aborted) throw lostConnection(error, controller.signal, tell);
        return "";
      });
      return jsonBodyOf(response, text, started, tell);
    }
    let streamed: StreamedCompletion;
    try {
      streamed = await readCompletionStream(response.body, named ? undefined : config.onGeneration);
    } catch (error) {
      throw lostConnection(error, controller.signal, tell);
    }
    if (streamed.kind === "error" && typeof streamed.code === "number" && streamed.code >= 400) {
      throw statusError(streamed.code, streamed.message ?? "API request failed", null, tell);
    }
    tell({ kind: "success", latencyMs: Date.now() - started });
    if (streamed.kind === "error") throw new GatewayError(streamed.message || "API request failed", 200, true);
    if (streamed.kind === "truncated") throw new GatewayError("API request failed", 200, true);
    return { choices: [{ message: { content: streamed.content } }], usage: streamed.usage };
  } finally {
    clearTimeout(timer);
  }
}

/** Up to `maxAttempts` exchanges; 429 waits 2^attempt seconds or Retry-After if longer. */
async function withAttempts<T>(config: GatewayConfig, run: () => Promise<T>): Promise<T> {
  const attempts = config.maxAttempts ?? GATEWAY_MAX_ATTEMPTS;
  const scale = config.backoffScale ?? 1;
  let lastError: GatewayError | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof GatewayError) || !error.retryable) throw error;
      lastError = error;
      if (attempt === attempts) break;
      const retryAfter = (error as GatewayError & { retryAfterSeconds?: number }).retryAfterSeconds ?? 0;
      const waitSeconds = error.status === 429 ? Math.max(2 ** attempt, retryAfter) : 2 ** (attempt - 1);
      await sleep(waitSeconds * 1000 * scale);
    }
  }
  throw new GatewayError(`${MAX_RETRIES_MESSAGE}: ${lastError?.message ?? "unknown error"}`, lastError?.status, true);
}

export async function chatCompletion(
  config: GatewayConfig,
  /** `seed`: a repeated cell's run (lib/repeats.ts), so no repeat is answered with another's reply. */
  request: { model: string; messages: ChatMessage[]; temperature?: number; maxTokens: number; seed?: number },
): Promise<ChatResult> {
  return withAttempts(config, async () => {
    const started = Date.now();
    const body = (await exchange(
      config,
      "/chat/completions",
      {
        method: "POST",
        body: JSON.stringify({
          model: request.model,
          messages: request.messages,
          temperature: request.temperature ?? DEFAULT_TEMPERATURE,
          max_tokens: request.maxTokens,
          ...(request.seed === undefined ? {} : { seed: request.seed }),
          // Streamed, so that a caller gone away stops the generation and its billing
          // (gatewayStream.ts); the usage comes in the last chunk.
          stream: true,
          stream_options: { include_usage: true },
        }),
      },
      request.maxTokens,
      true,
    )) as { choices?: { message?: { content?: unknown } }[]; usage?: CompletionUsage };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== "string") throw new GatewayError("API request failed", 200, true);
    const promptTokens = body.usage?.prompt_tokens ?? 0;
    const completionTokens = body.usage?.completion_tokens ?? 0;
    return {
      content,
      promptTokens,
      completionTokens,
      totalTokens: body.usage?.total_tokens ?? promptTokens + completionTokens,
      ...(typeof body.usage?.cost === "number" ? { billedUsd: body.usage.cost } : {}),
      latencyMs: Date.now() - started,
    };
  });
}

/** How long a look at an ended generation may take (two small GETs). */
const GENERATION_LOOK_MS = 10_000;

type GenerationMetadata = {
  cancelled?: unknown;
  finish_reason?: unknown;
  tokens_prompt?: unknown;
  tokens_completion?: unknown;
  total_cost?: unknown;
  generation_time?: unknown;
};

/** What the gateway says of a generation asked after by id (endedGeneration). */
export type GenerationLook =
  /** It ran to its end: its result. */
  | { ended: ChatResult }
  /** Its client's leaving stopped it: nothing to take. */
  | "stopped"
  /** Not known (yet): OpenRouter keeps a generation once it has ended, so it may be running still. */
  | "unknown"
  /** Known, but its content cannot be had (not stored, an error): make the call again. */
  | "unavailable";

/**
 * A generation as the gateway kept it once it ended (OpenRouter's GET /generation and
 * /generation/content). A worker that died had its calls' generations run on at providers that
 * do not stop them: the result is taken from here rather than paid for again.
 */
export async function endedGeneration(config: GatewayConfig, generationId: string): Promise<GenerationLook> {
  const look = async (path: string): Promise<{ status: number; data: unknown }> => {
    const response = await fetch(`${config.baseUrl}${path}?id=${encodeURIComponent(generationId)}`, {
      headers: headers(config),
      signal: AbortSignal.timeout(GENERATION_LOOK_MS),
    });
    if (!response.ok) return { status: response.status, data: null };
    return { status: response.status, data: ((await response.json()) as { data?: unknown }).data ?? null };
  };
  try {
    const found = await look("/generation");
    if (found.status === 404) return "unknown";
    const metadata = found.data as GenerationMetadata | null;
    if (!metadata) return "unavailable";
    if (metadata.cancelled === true) return "stopped";
    if (metadata.finish_reason === "error") return "unavailable"; // the provider failed: asked again
    const content = (await look("/generation/content")).data as { output?: { completion?: unknown } } | null;
    const completion = content?.output?.completion;
    const promptTokens = metadata.tokens_prompt;
    const completionTokens = metadata.tokens_completion;
    if (typeof completion !== "string" || typeof promptTokens !== "number" || typeof completionTokens !== "number")
      return "unavailable";
    return {
      ended: {
        content: completion,
        promptTokens,
        completionTokens,
        totalTokens: promptTokens + completionTokens,
        ...(typeof metadata.total_cost === "number" ? { billedUsd: metadata.total_cost } : {}),
        latencyMs: typeof metadata.generation_time === "number" ? metadata.generation_time : 0,
      },
    };
  } catch {
    return "unavailable";
  }
}

/** The gateway's raw model list (OpenRouter shape: `{ data: [...] }`). */
export async function listModels(config: GatewayConfig): Promise<unknown[]> {
  return withAttempts(config, async () => {
    const body = (await exchange(config, "/models", { method: "GET" })) as { data?: unknown };
    if (!Array.isArray(body.data)) throw new GatewayError("API request failed", 200, false);
    return body.data;
  });
}

/**
 * Whether the gateway accepts the key (OpenRouter's `GET /key`; the model list itself is public
 * there). Gateways without that endpoint answer 404 or 405: the key's validity is then unknown.
 */
export async function checkKey(config: GatewayConfig): Promise<"valid" | "unknown"> {
  try {
    await withAttempts(config, () => exchange(config, "/key", { method: "GET" }));
    return "valid";
  } catch (error) {
    if (error instanceof GatewayError && (error.status === 404 || error.status === 405)) return "unknown";
    throw error;
  }
}
