import { describe, expect, test } from "vitest";
import { SseParser, type SseEvent } from "./sse";

function parse(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return events;
}

// OpenRouter's streaming page: a comment to keep the connection open, chunks as `data:` events, `[DONE]`.
const OPENROUTER_STREAM = [
  ": OPENROUTER PROCESSING",
  "",
  'data: {"id":"gen-1","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}',
  "",
  'data: {"id":"gen-1","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}',
  "",
  'data: {"id":"gen-1","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}',
  "",
  "data: [DONE]",
  "",
  "",
].join("\n");

describe("the SSE framing of a streamed completion", () => {
  test("comments are skipped and every data event comes out whole, however the bytes are cut", () => {
    const whole = parse([OPENROUTER_STREAM]);
    expect(whole.map((event) => event.data)).toEqual([
      '{"id":"gen-1","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}',
      '{"id":"gen-1","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}',
      '{"id":"gen-1","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}',
      "[DONE]",
    ]);
    expect(whole.every((event) => event.event === "message")).toBe(true);
    // One character at a time, and in uneven pieces: the same events.
    expect(parse([...OPENROUTER_STREAM])).toEqual(whole);
    expect(parse([OPENROUTER_STREAM.slice(0, 7), OPENROUTER_STREAM.slice(7, 90), OPENROUTER_STREAM.slice(90)])).toEqual(
      whole,
    );
  });

  test("CRLF and CR line ends, even split between chunks, frame the same as LF", () => {
    const lf = parse([OPENROUTER_STREAM]);
    const crlf = OPENROUTER_STREAM.replaceAll("\n", "\r\n");
    expect(parse([crlf])).toEqual(lf);
    expect(parse([...crlf])).toEqual(lf);
    expect(parse([OPENROUTER_STREAM.replaceAll("\n", "\r")])).toEqual(lf);
  });

  test("the spec's own examples: multi-line data, a field without a space, event names, no dispatch at the end", () => {
    // HTML spec §9.2.6: "data: YHOO\ndata: +2\ndata: 10\n\n" is one event "YHOO\n+2\n10".
    expect(parse(["data: YHOO\ndata: +2\ndata: 10\n\n"]).map((event) => event.data)).toEqual(["YHOO\n+2\n10"]);
    // "data:test" and "data: test" are the same; "data" alone is an empty line of data.
    expect(parse(["data:test\n\ndata: test\n\ndata\ndata\n\n"]).map((event) => event.data)).toEqual([
      "test",
      "test",
      "\n",
    ]);
    expect(parse(["event: add\ndata: 73857293\n\n"])).toEqual([{ event: "add", data: "73857293", id: undefined }]);
    // An event cut off by the end of the stream is not dispatched.
    expect(parse(["data: first\n\ndata: cut off"]).map((event) => event.data)).toEqual(["first"]);
    // A leading byte-order mark is not part of the first field name.
    expect(parse(["\uFEFFdata: x\n\n"]).map((event) => event.data)).toEqual(["x"]);
  });
});
