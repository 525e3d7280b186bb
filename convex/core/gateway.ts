// OpenAI-compatible gateway client (OpenRouter by default; Ollama, vLLM or the dev gateway
// work the same). Time-out (growing with the output asked for), attempts, 429 back-off (at
// least the gateway's Retry-After) and error texts follow spec part 1 §8-9.
import { env } from "../env";
import { withoutTrailingSlashes } from "../lib/text";

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

/** One HTTP exchange with a time-out; throws GatewayError with the spec's texts. */
async function exchange(config: GatewayConfig, path: string, init: RequestInit, maxTokens?: number): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutFor(config, maxTokens));
  const started = Date.now();
  const tell = (event: ExchangeEvent) => config.onExchange?.(event);
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      ...init,
      headers: headers(config),
      signal: controller.signal,
    });
  } catch (error) {
    const timedOut = controller.signal.aborted;
    tell(timedOut ? { kind: "timeout" } : { kind: "other" });
    throw new GatewayError(
      timedOut ? "Request timeout: the model gateway did not answer in time" : `Network error: ${String(error)}`,
      undefined,
      true,
    );
  } finally {
    clearTimeout(timer);
  }
  const text = await response.text().catch(() => "");
  if (response.status === 401) {
    tell({ kind: "other" });
    throw new GatewayError(INVALID_KEY_MESSAGE, 401, false);
  }
  if (response.status === 429) {
    const retryAfterMs = retryAfterMsOf(response.headers.get("retry-after"));
    tell({ kind: "rateLimited", ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    const error = new GatewayError(`HTTP 429: rate limit exceeded`, 429, true);
    (error as GatewayError & { retryAfterSeconds?: number }).retryAfterSeconds =
      retryAfterMs === undefined ? undefined : retryAfterMs / 1000;
    throw error;
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    tell(response.status >= 500 ? { kind: "serverError" } : { kind: "other" });
    throw new GatewayError(
      `HTTP ${response.status}: ${errorMessageOf(body) ?? (text.slice(0, 300) || response.statusText)}`,
      response.status,
      response.status >= 500,
    );
  }
  tell({ kind: "success", latencyMs: Date.now() - started });
  if (body === null) throw new GatewayError("API request failed", response.status, true);
  const bodyError = errorMessageOf(body);
  if (bodyError !== undefined) throw new GatewayError(bodyError || "API request failed", response.status, true);
  return body;
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
        }),
      },
      request.maxTokens,
    )) as {
      choices?: { message?: { content?: unknown } }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
    };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== "string") throw new GatewayError("API request failed", 200, true);
    const promptTokens = body.usage?.prompt_tokens ?? 0;
    const completionTokens = body.usage?.completion_tokens ?? 0;
    return {
      content,
      promptTokens,
      completionTokens,
      totalTokens: body.usage?.total_tokens ?? promptTokens + completionTokens,
      latencyMs: Date.now() - started,
    };
  });
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
