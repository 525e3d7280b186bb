// @vitest-environment node
// Streamed completions and their cancellation (streaming.ts): a client that disconnects mid-stream
// stops the generation, which counts as cancelled and is billed for the prompt and the completion
// tokens streamed until then; a non-streamed call left by its client runs on and is billed whole.
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { SseParser } from "../../convex/lib/sse";
import { findCatalogModel } from "./catalog";
import { estimateTokens } from "./requests";
import { startGateway } from "./server";
import { contentPieces, costOf, MAX_CONTENT_CHUNKS } from "./streaming";

let gateway: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gateway = await startGateway({ port: 0 });
});
afterAll(() => gateway.close());
beforeEach(async () => {
  await fetch(gateway.url.replace("/api/v1", "/__stats"), { method: "DELETE" });
});

const MODEL = "openai/gpt-4o-mini";
const request = (stream: boolean) => ({
  model: MODEL,
  messages: [
    { role: "system", content: "You are a careful shopper." },
    {
      role: "user",
      content:
        "Write 4 different answers to: which kettle should I buy? Reply with a JSON array of 4 strings and nothing else.",
    },
  ],
  max_tokens: 2_000,
  ...(stream ? { stream: true } : {}),
});

function post(body: unknown, signal?: AbortSignal) {
  return fetch(`${gateway.url}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.settings.apiKey}` },
    body: JSON.stringify(body),
    signal,
  });
}

type Chunk = { choices: { delta?: { content?: string }; finish_reason?: string | null }[]; usage?: Usage };
type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost: number };

/** Reads a stream's `data:` events until `enough` says stop (then aborts) or the stream ends. */
async function readEvents(response: Response, enough: (events: string[]) => boolean, abort: () => void) {
  const events: string[] = [];
  const parser = new SseParser(({ data }) => events.push(data));
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
    if (enough(events)) {
      abort();
      break;
    }
  }
  return events;
}

describe("a streamed completion", () => {
  test("comes as OpenRouter streams it and, read to its end, is completed and billed as the non-streamed one", async () => {
    gateway.settings.fixedLatencyMs = 200;
    const plain = (await (await post(request(false))).json()) as {
      choices: { message: { content: string } }[];
      usage: Usage;
    };
    const response = await post(request(true));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await readEvents(
      response,
      () => false,
      () => {},
    );
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((data) => JSON.parse(data) as Chunk);
    const content = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(content).toBe(plain.choices[0]!.message.content);
    expect(chunks.length).toBeLessThanOrEqual(MAX_CONTENT_CHUNKS + 2);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)!.usage).toEqual(plain.usage);
    const model = findCatalogModel(MODEL)!;
    expect(plain.usage.cost).toBeCloseTo(costOf(model, plain.usage.prompt_tokens, plain.usage.completion_tokens), 15);
    expect(gateway.stats).toMatchObject({ completed: 2, cancelled: 0 });
    expect(gateway.stats.billed.completed.costUsd).toBeCloseTo(2 * plain.usage.cost, 15);
  });

  test("disconnected mid-stream, stops there: cancelled, billed for the prompt and the tokens streamed so far", async () => {
    // Long enough that the content comes in chunks ~100 ms apart.
    gateway.settings.fixedLatencyMs = 2_000;
    const plain = (await (await post(request(false))).json()) as {
      choices: { message: { content: string } }[];
      usage: Usage;
    };
    await fetch(gateway.url.replace("/api/v1", "/__stats"), { method: "DELETE" });

    const controller = new AbortController();
    const response = await post(request(true), controller.signal);
    const events = await readEvents(
      response,
      (seen) => seen.length >= 3,
      () => controller.abort(),
    );
    const received = events.map((data) => (JSON.parse(data) as Chunk).choices[0]?.delta?.content ?? "");
    // What the gateway had streamed when it saw the disconnect: the chunks read here, or a few
    // more if it sent them while the client was leaving, never the whole answer.
    const pieces = contentPieces(plain.choices[0]!.message.content);
    const streamedPrefixes = pieces
      .map((_, index) => estimateTokens(pieces.slice(0, index + 1).join("")))
      .slice(received.length - 1, -1);
    expect(received.join("")).toBe(pieces.slice(0, received.length).join(""));

    await vi.waitFor(() => expect(gateway.stats.cancelled).toBe(1), { interval: 10, timeout: 10_000 });
    expect(gateway.stats).toMatchObject({ completed: 0, inFlight: 0 });
    const billed = gateway.stats.billed.cancelled;
    const model = findCatalogModel(MODEL)!;
    expect(billed.promptTokens).toBe(plain.usage.prompt_tokens);
    expect(streamedPrefixes).toContain(billed.completionTokens);
    expect(billed.completionTokens).toBeLessThan(plain.usage.completion_tokens);
    expect(billed.costUsd).toBeCloseTo(costOf(model, billed.promptTokens, billed.completionTokens), 15);
    expect(billed.costUsd).toBeLessThan(plain.usage.cost);
    expect(gateway.stats.billed.completed.costUsd).toBe(0);
  });

  test("left before its first token, is billed for the prompt alone; a non-streamed call left is billed whole", async () => {
    gateway.settings.fixedLatencyMs = 10_000;
    const streamed = new AbortController();
    const response = await post(request(true), streamed.signal);
    await readEvents(
      response,
      () => true,
      () => streamed.abort(),
    );
    await vi.waitFor(() => expect(gateway.stats.cancelled).toBe(1), { interval: 10, timeout: 10_000 });
    expect(gateway.stats.billed.cancelled.completionTokens).toBe(0);
    expect(gateway.stats.billed.cancelled.promptTokens).toBeGreaterThan(0);

    const unstreamed = new AbortController();
    const left = post(request(false), unstreamed.signal).catch(() => "left");
    await vi.waitFor(() => expect(gateway.stats.inFlight).toBe(1), { interval: 10, timeout: 10_000 });
    unstreamed.abort();
    expect(await left).toBe("left");
    await vi.waitFor(() => expect(gateway.stats.completed).toBe(1), { interval: 10, timeout: 10_000 });
    expect(gateway.stats.cancelled).toBe(1);
    expect(gateway.stats.billed.completed.completionTokens).toBeGreaterThan(100);
  });
});

describe("an ended generation, by its id (GET /generation and /generation/content)", () => {
  const look = (path: string, id: string) =>
    fetch(`${gateway.url}${path}?id=${encodeURIComponent(id)}`, {
      headers: { Authorization: `Bearer ${gateway.settings.apiKey}` },
    });

  test("read to its end: its metadata and its completion, as the stream gave them; unknown before it ends", async () => {
    gateway.settings.fixedLatencyMs = 300;
    const response = await post(request(true));
    const id = response.headers.get("x-generation-id")!;
    expect(id).toMatch(/^gen-/);
    expect((await look("/generation", id)).status).toBe(404); // still running
    const events = await readEvents(
      response,
      () => false,
      () => undefined,
    );
    const chunks = events.filter((data) => data !== "[DONE]").map((data) => JSON.parse(data) as Chunk & { id: string });
    expect(new Set(chunks.map((chunk) => chunk.id))).toEqual(new Set([id]));
    const streamed = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    const usage = chunks.find((chunk) => chunk.usage)!.usage!;

    const metadata = (await (await look("/generation", id)).json()) as { data: Record<string, unknown> };
    expect(metadata.data).toMatchObject({
      id,
      model: MODEL,
      cancelled: false,
      streamed: true,
      tokens_prompt: usage.prompt_tokens,
      tokens_completion: usage.completion_tokens,
    });
    expect(metadata.data.total_cost).toBeCloseTo(usage.cost, 12);
    const content = (await (await look("/generation/content", id)).json()) as {
      data: { input: { messages: unknown[] }; output: { completion: string } };
    };
    expect(content.data.output.completion).toBe(streamed);
    expect(content.data.input.messages).toEqual(request(true).messages);
    expect((await look("/generation", "gen-unknown")).status).toBe(404);
  });

  test("left mid-stream: cancelled where providers stop; run to its end and billed in full where they do not", async () => {
    gateway.settings.fixedLatencyMs = 600;
    const leave = async () => {
      const controller = new AbortController();
      const response = await post(request(true), controller.signal);
      const id = response.headers.get("x-generation-id")!;
      await readEvents(
        response,
        (events) => events.length >= 2,
        () => controller.abort(),
      );
      return id;
    };
    const stopped = await leave();
    await vi.waitFor(async () => expect((await look("/generation", stopped)).status).toBe(200));
    expect(
      ((await (await look("/generation", stopped)).json()) as { data: { cancelled: boolean } }).data.cancelled,
    ).toBe(true);

    gateway.settings.stopsOnDisconnect = false;
    try {
      const before = gateway.stats.completed;
      const ranOn = await leave();
      await vi.waitFor(async () => expect((await look("/generation", ranOn)).status).toBe(200), { timeout: 5_000 });
      const content = (await (await look("/generation/content", ranOn)).json()) as {
        data: { output: { completion: string } };
      };
      expect(content.data.output.completion.length).toBeGreaterThan(0);
      expect(gateway.stats.completed - before).toBe(1); // billed in full
    } finally {
      gateway.settings.stopsOnDisconnect = true;
    }
  });
});
