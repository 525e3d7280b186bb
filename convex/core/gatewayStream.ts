// A streamed chat completion (OpenRouter's "Streaming": `data:` chunks, `: OPENROUTER PROCESSING`
// comments, usage in the last chunk, `[DONE]`), put back together as the one answer a
// non-streamed call returns. Streamed so that a caller that goes away (a killed action, a
// time-out) closes the connection, which for supported providers "immediately stops model
// processing and billing"; a non-streamed request runs on and is billed in full.
import { SseParser } from "../lib/sse";

/** The usage a completion reports (`cost`: what the gateway billed, in dollars, where it says). */
export type CompletionUsage = {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  cost?: number;
};

/** What a stream assembled to, in the non-streamed body's terms. */
export type StreamedCompletion =
  | { kind: "answer"; content: string; usage: CompletionUsage | undefined }
  /** A `data:` event with an `error` field: an error after the response began. */
  | { kind: "error"; code: unknown; message: string | undefined }
  /** The stream ended before its end (no `[DONE]`, no finish reason): as a truncated body. */
  | { kind: "truncated" };

type Chunk = {
  id?: unknown;
  choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[];
  usage?: CompletionUsage;
  error?: { code?: unknown; message?: unknown } | string;
};

/**
 * Reads an event stream to its end. Throws what the body's reader throws (the connection
 * dropped, the request aborted); the caller names it.
 */
export async function readCompletionStream(
  body: ReadableStream<Uint8Array>,
  /** Told the generation's id from the first chunk that names it. */
  onGeneration?: (generationId: string) => void,
): Promise<StreamedCompletion> {
  const parts: string[] = [];
  let named = false;
  let usage: Chunk["usage"];
  let finished = false;
  let done = false;
  let sawChoice = false;
  let error: { code: unknown; message: string | undefined } | undefined;
  const parser = new SseParser(({ data }) => {
    if (done || error) return;
    if (data === "[DONE]") {
      done = true;
      return;
    }
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      return; // not JSON: nothing of the answer (the spec lets a server send other events)
    }
    if (!named && typeof chunk.id === "string" && chunk.id !== "") {
      named = true;
      onGeneration?.(chunk.id);
    }
    if (chunk.error !== undefined) {
      error =
        typeof chunk.error === "string"
          ? { code: undefined, message: chunk.error }
          : {
              code: chunk.error.code,
              message: typeof chunk.error.message === "string" ? chunk.error.message : undefined,
            };
      return;
    }
    const choice = chunk.choices?.[0];
    if (choice) {
      sawChoice = true;
      if (typeof choice.delta?.content === "string") parts.push(choice.delta.content);
      if (typeof choice.finish_reason === "string") finished = true;
    }
    if (chunk.usage) usage = chunk.usage;
  });
  const text = new Utf8Lines();
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      parser.feed(text.decode(value));
      if (done || error) break;
    }
  } finally {
    // Leaving early (an error event, `[DONE]`) closes the connection rather than draining it.
    await reader.cancel().catch(() => undefined);
  }
  parser.end();
  if (error) return { kind: "error", ...error };
  if (!(done || finished) || !sawChoice) return { kind: "truncated" };
  return { kind: "answer", content: parts.join(""), usage };
}

/**
 * Decodes a byte stream up to its last line end, keeping the rest for the next chunk: a character
 * cut between two chunks is never decoded in halves, and a line end (ASCII) never falls inside a
 * character. (Plain `TextDecoder.decode` calls, without relying on its `stream` option.)
 */
export class Utf8Lines {
  private rest = new Uint8Array(0);
  private readonly decoder = new TextDecoder();

  decode(chunk: Uint8Array): string {
    const bytes = this.rest.length === 0 ? chunk : concat(this.rest, chunk);
    let end = bytes.length;
    while (end > 0 && bytes[end - 1] !== 0x0a && bytes[end - 1] !== 0x0d) end--;
    this.rest = bytes.slice(end);
    return end === 0 ? "" : this.decoder.decode(bytes.subarray(0, end));
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
