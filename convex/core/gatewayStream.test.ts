// @vitest-environment node
// The gateway client streams its chat completions (gatewayStream.ts) and returns what a
// non-streamed call returns: the same answer, usage and cost for the same request and seed, and
// the spec's error texts and retry rules for every failure (an error event in the stream reads as
// the HTTP error it names; a stream cut short as a body cut short).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startGateway } from "../../dev/gateway/server";
import {
  chatCompletion,
  endedGeneration,
  GatewayError,
  MAX_RETRIES_MESSAGE,
  type ExchangeEvent,
  type GatewayConfig,
} from "./gateway";
import { readCompletionStream, Utf8Lines } from "./gatewayStream";

let gateway: Awaited<ReturnType<typeof startGateway>>;
const config = (): GatewayConfig => ({ baseUrl: gateway.url, apiKey: gateway.settings.apiKey, backoffScale: 0 });
const noFaults = { rate429: 0, rate500: 0, rateTimeout: 0, rateMalformed: 0 };

beforeAll(async () => {
  gateway = await startGateway({ port: 0, latencyScale: 0.05 });
});
afterAll(() => gateway.close());

const GENERATION = {
  model: "anthropic/claude-3.5-haiku",
  messages: [
    { role: "system" as const, content: "You are a careful shopper." },
    {
      role: "user" as const,
      content:
        "Write 4 different answers to: which kettle should I buy? Reply with a JSON array of 4 strings and nothing else.",
    },
  ],
  maxTokens: 2_000,
  seed: 3,
};

/** The same request, not streamed, straight to the gateway. */
async function unstreamed(request: typeof GENERATION) {
  const response = await fetch(`${gateway.url}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.settings.apiKey}` },
    body: JSON.stringify({
      model: request.model,
      messages: request.messages,
      temperature: 0.7,
      max_tokens: request.maxTokens,
      seed: request.seed,
    }),
  });
  return (await response.json()) as {
    choices: { message: { content: string } }[];
    usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost: number };
  };
}

describe("a streamed chat completion", () => {
  test("gives the answer, usage and cost the non-streamed call gives for the same seed", async () => {
    const completedBefore = gateway.stats.completed;
    const streamed = await chatCompletion(config(), GENERATION);
    const plain = await unstreamed(GENERATION);
    expect(streamed.content.length).toBeGreaterThan(200);
    expect(streamed).toMatchObject({
      content: plain.choices[0]!.message.content,
      promptTokens: plain.usage.prompt_tokens,
      completionTokens: plain.usage.completion_tokens,
      totalTokens: plain.usage.total_tokens,
      billedUsd: plain.usage.cost,
    });
    expect(streamed.billedUsd).toBeGreaterThan(0);
    // Another seed is another answer (a repeat's run), streamed or not.
    const other = await chatCompletion(config(), { ...GENERATION, seed: 4 });
    expect(other.content).toBe((await unstreamed({ ...GENERATION, seed: 4 })).choices[0]!.message.content);
    expect(other.content).not.toBe(streamed.content);
    expect(gateway.stats.completed - completedBefore).toBe(4);
  });

  test("an upstream failure in the stream reads as HTTP 500 and is retried, with the spec's texts", async () => {
    gateway.settings.faults = { ...noFaults, rate500: 1 };
    const events: ExchangeEvent["kind"][] = [];
    try {
      const failure = await chatCompletion(
        { ...config(), maxAttempts: 2, onExchange: (event) => events.push(event.kind) },
        GENERATION,
      ).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GatewayError);
      expect(failure).toMatchObject({
        message: `${MAX_RETRIES_MESSAGE}: HTTP 500: Internal Server Error: the upstream provider failed`,
        status: 500,
        retryable: true,
      });
      expect(events).toEqual(["serverError", "serverError"]);
    } finally {
      gateway.settings.faults = noFaults;
    }
  });

  test("a stream that never sends its answer times out with the spec's text, and disconnects", async () => {
    gateway.settings.faults = { ...noFaults, rateTimeout: 1 };
    try {
      const failure = await chatCompletion({ ...config(), maxAttempts: 1, timeoutMs: 100 }, GENERATION).catch(
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({
        message: `${MAX_RETRIES_MESSAGE}: Request timeout: the model gateway did not answer in time`,
        retryable: true,
      });
    } finally {
      gateway.settings.faults = noFaults;
    }
  });

  test("a wrong key and a rate limit keep their texts and rules", async () => {
    const wrong = await chatCompletion({ ...config(), apiKey: "wrong" }, GENERATION).catch((error: unknown) => error);
    expect(wrong).toMatchObject({
      message: "Invalid API key. Please check your OpenRouter API key configuration.",
      status: 401,
      retryable: false,
    });
    gateway.settings.faults = { ...noFaults, rate429: 1 };
    try {
      const events: ExchangeEvent[] = [];
      const limited = await chatCompletion(
        { ...config(), maxAttempts: 1, onExchange: (event) => events.push(event) },
        GENERATION,
      ).catch((error: unknown) => error);
      expect(limited).toMatchObject({ message: `${MAX_RETRIES_MESSAGE}: HTTP 429: rate limit exceeded`, status: 429 });
      expect(events).toEqual([{ kind: "rateLimited", retryAfterMs: 1_000 }]);
    } finally {
      gateway.settings.faults = noFaults;
    }
  });
});

describe("a stream from another server", () => {
  test("an error event without a status, and a stream cut short, fail as a 200 body with an error or cut short does", async () => {
    const replies = [
      ': OPENROUTER PROCESSING\n\ndata: {"choices":[{"delta":{"content":"Hel"}}]}\n\ndata: {"error":{"code":"server_error","message":"Provider disconnected unexpectedly"},"choices":[{"delta":{"content":""},"finish_reason":"error"}]}\n\n',
      'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\n',
      'data: {"choices":[{"delta":{"content":"Hel"}}]}\r\n\r\ndata: {"choices":[{"delta":{"content":"lo"},"finish_reason":"stop"}]}\r\n\r\ndata: {"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":1}}\r\n\r\ndata: [DONE]\r\n\r\n',
    ];
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(replies.shift());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const once = { baseUrl, apiKey: "k", maxAttempts: 1 };
      await expect(chatCompletion(once, GENERATION)).rejects.toMatchObject({
        message: `${MAX_RETRIES_MESSAGE}: Provider disconnected unexpectedly`,
        status: 200,
      });
      await expect(chatCompletion(once, GENERATION)).rejects.toMatchObject({
        message: `${MAX_RETRIES_MESSAGE}: API request failed`,
        status: 200,
      });
      expect(await chatCompletion(once, GENERATION)).toMatchObject({
        content: "Hello",
        promptTokens: 7,
        completionTokens: 1,
        totalTokens: 8,
      });
    } finally {
      server.close();
    }
  });
});

describe("the stream's bytes", () => {
  test("a character cut between two chunks is decoded whole, and lines come out only when ended", () => {
    const bytes = new TextEncoder().encode('data: {"content":"Grüße, 東京 ☕"}\n\n');
    const lines = new Utf8Lines();
    // Every cut, including inside the two- and three-byte characters.
    for (let cut = 1; cut < bytes.length; cut++) {
      const fresh = new Utf8Lines();
      expect(fresh.decode(bytes.subarray(0, cut)) + fresh.decode(bytes.subarray(cut))).toBe(
        'data: {"content":"Grüße, 東京 ☕"}\n\n',
      );
    }
    expect(lines.decode(bytes.subarray(0, 10))).toBe("");
    expect(lines.decode(bytes.subarray(10))).toBe('data: {"content":"Grüße, 東京 ☕"}\n\n');
  });
});

describe("a completion's generation id", () => {
  test("is told as the gateway names it, and its ended generation gives back the same result", async () => {
    const named: string[] = [];
    const result = await chatCompletion({ ...config(), onGeneration: (id) => named.push(id) }, GENERATION);
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(/^gen-/);
    expect(await endedGeneration(config(), named[0]!)).toEqual({
      ended: {
        content: result.content,
        promptTokens: result.promptTokens,
        completionTokens: result.completionTokens,
        totalTokens: result.totalTokens,
        billedUsd: result.billedUsd,
        latencyMs: expect.any(Number),
      },
    });
    expect(await endedGeneration(config(), "gen-unknown")).toBe("unknown");
  });

  test("is read from the stream's chunks where no header names it (OpenRouter's `id` in each chunk)", async () => {
    const named: string[] = [];
    const done = await readCompletionStream(
      new Response(
        'data: {"id":"gen-123","choices":[{"delta":{"content":"Hi"}}]}\n\n' +
          'data: {"id":"gen-123","choices":[{"delta":{"content":"!"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
      ).body!,
      (id) => named.push(id),
    );
    expect(done).toMatchObject({ kind: "answer", content: "Hi!" });
    expect(named).toEqual(["gen-123"]);
  });
});
