// Streamed chat completions (`"stream": true`) in OpenRouter's format, and what the gateway bills.
//
// The stream: headers and one `: OPENROUTER PROCESSING` comment at once (OpenRouter sends such
// comments now and then to keep a connection open); the first token after FIRST_TOKEN_SHARE of
// the call's latency (the time a model reads the prompt); the content in up to
// MAX_CONTENT_CHUNKS `data:` chunks spread evenly over the rest; at the latency's end a chunk with
// the finish reason, one with the usage (`choices: []`, as OpenAI's `include_usage` sends it),
// and `data: [DONE]`. So a streamed call takes as long as a non-streamed one.
// An upstream failure (the 500 fault) comes as OpenRouter sends an error after the response
// began: a `data:` event with an `error` field ({ code: 500, message }) and finish reason
// "error", at the first token's time; the stream then ends.
//
// Cancellation, as OpenRouter documents it for its supported providers ("aborting the connection
// ... immediately stops model processing and billing"): a client that closes the connection
// before `[DONE]` stops the generation there. What it is billed, modelled here: the whole prompt
// (a provider has read it, or is reading it, from the first moment: partial prefill is not
// something a price list shows) and the completion tokens streamed so far (the ones generated:
// a provider generates a few tokens ahead of what reached the client, too few to model). Such a
// call counts as "cancelled", not "completed". A non-streamed request keeps running when its
// client leaves, as OpenRouter says, and is billed in full: "completed".
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { CatalogModel } from "./catalog";
import { estimateTokens } from "./requests";

/** The share of a call's latency before its first token. */
export const FIRST_TOKEN_SHARE = 0.2;
/** At most this many content chunks a stream (each a timer: a bench has hundreds of calls out). */
export const MAX_CONTENT_CHUNKS = 16;
const CHUNK_CHARS = 64;

export type Billed = { promptTokens: number; completionTokens: number; costUsd: number };

export const noBill = (): Billed => ({ promptTokens: 0, completionTokens: 0, costUsd: 0 });

/** Dollars for tokens at the catalog's prices (what OpenRouter reports as `usage.cost`). */
export function costOf(model: CatalogModel, promptTokens: number, completionTokens: number): number {
  return (promptTokens * model.promptPerMillion + completionTokens * model.completionPerMillion) / 1_000_000;
}

export function addBill(total: Billed, model: CatalogModel, promptTokens: number, completionTokens: number): void {
  total.promptTokens += promptTokens;
  total.completionTokens += completionTokens;
  total.costUsd += costOf(model, promptTokens, completionTokens);
}

/** A reply as written, before it is sent whole or streamed. */
export type Reply = { content: string; finishReason: string; promptTokens: number; completionTokens: number };

export function usageOf(model: CatalogModel, reply: Pick<Reply, "promptTokens" | "completionTokens">) {
  return {
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
    cost: costOf(model, reply.promptTokens, reply.completionTokens),
  };
}

export const generationId = (created: number) => `gen-${created}-${randomBytes(10).toString("hex")}`;

/** Opens the event stream: headers and a processing comment. */
export function openStream(res: ServerResponse, id: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "x-generation-id": id,
  });
  res.write(": OPENROUTER PROCESSING\n\n");
}

function send(res: ServerResponse, data: unknown): void {
  if (!res.destroyed) res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
}

/** The content's pieces, each sent as one chunk. */
export function contentPieces(content: string): string[] {
  const count = Math.min(MAX_CONTENT_CHUNKS, Math.max(1, Math.ceil(content.length / CHUNK_CHARS)));
  const size = Math.ceil(content.length / count);
  return Array.from({ length: count }, (_, index) => content.slice(index * size, (index + 1) * size));
}

export type StreamEnd =
  | { kind: "completed"; reply: Reply }
  | { kind: "failed" }
  /** The client left: `completionTokens` of the content had been streamed. */
  | { kind: "cancelled"; completionTokens: number };

/**
 * Streams `reply` over `latencyMs` (or the upstream failure). `wait` resolves false when the
 * client has gone, which ends the generation.
 */
export async function streamReply(
  res: ServerResponse,
  call: { id: string; created: number; model: CatalogModel; latencyMs: number; upstreamFails: boolean },
  reply: () => Reply,
  wait: (ms: number) => Promise<boolean>,
): Promise<StreamEnd> {
  const { id, created, model, latencyMs } = call;
  const base = { id, provider: model.id.split("/")[0], model: model.id, object: "chat.completion.chunk", created };
  openStream(res, id);
  const firstToken = latencyMs * FIRST_TOKEN_SHARE;
  if (!(await wait(firstToken))) return { kind: "cancelled", completionTokens: 0 };
  if (call.upstreamFails) {
    const message = "Internal Server Error: the upstream provider failed";
    send(res, {
      ...base,
      error: { code: 500, message },
      choices: [{ index: 0, delta: { content: "" }, finish_reason: "error", native_finish_reason: "error" }],
    });
    res.end();
    return { kind: "failed" };
  }
  const written = reply();
  const pieces = contentPieces(written.content);
  const step = (latencyMs - firstToken) / pieces.length;
  let streamed = "";
  for (const [index, piece] of pieces.entries()) {
    if (index > 0 && !(await wait(step))) return { kind: "cancelled", completionTokens: estimateTokens(streamed) };
    send(res, {
      ...base,
      choices: [
        {
          index: 0,
          delta: { role: "assistant", content: piece },
          finish_reason: null,
          native_finish_reason: null,
          logprobs: null,
        },
      ],
    });
    streamed += piece;
  }
  if (!(await wait(step))) return { kind: "cancelled", completionTokens: estimateTokens(streamed) };
  send(res, {
    ...base,
    choices: [
      {
        index: 0,
        delta: { role: "assistant", content: "" },
        finish_reason: written.finishReason,
        native_finish_reason: written.finishReason,
        logprobs: null,
      },
    ],
  });
  send(res, { ...base, choices: [], usage: usageOf(model, written) });
  send(res, "[DONE]");
  res.end();
  return { kind: "completed", reply: written };
}
