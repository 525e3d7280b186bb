// Server-sent events framing, as the WHATWG HTML spec's "event stream interpretation" reads it:
// lines end in CRLF, LF or CR (a chunk may end between CR and LF); a line starting with ":" is a
// comment (OpenRouter's `: OPENROUTER PROCESSING`); `data:` lines add up, joined by "\n", and a
// blank line dispatches them; one space after the colon is dropped; a field without a colon is a
// field with an empty value; whatever the stream's end leaves undispatched is dropped. Hand-written
// (no SSE library is installed), tested on the documented format in sse.test.ts.

export type SseEvent = { event: string; data: string; id: string | undefined };

export class SseParser {
  private buffer = "";
  private started = false;
  private data: string[] = [];
  private event = "";
  private id: string | undefined;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  /** Feeds the next decoded text of the stream. */
  feed(text: string): void {
    this.buffer += text;
    if (!this.started && this.buffer.length > 0) {
      this.started = true;
      if (this.buffer.startsWith("\uFEFF")) this.buffer = this.buffer.slice(1);
    }
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf("\r", start);
      const lf = this.buffer.indexOf("\n", start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      // A CR last in the buffer may be the first half of a CRLF: wait for the next chunk.
      if (end === cr && end === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, end));
      start = end + (end === cr && this.buffer[end + 1] === "\n" ? 2 : 1);
    }
    this.buffer = this.buffer.slice(start);
  }

  /** The stream ended: what was not dispatched (no blank line after it) is dropped, as the spec says. */
  end(): void {
    // A CR last in the stream was a line end after all (read as the CRLF it cannot become).
    if (this.buffer.endsWith("\r")) this.feed("\n");
    this.buffer = "";
    this.data = [];
    this.event = "";
  }

  private line(line: string): void {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
  }

  private dispatch(): void {
    if (this.data.length > 0) this.onEvent({ event: this.event || "message", data: this.data.join("\n"), id: this.id });
    this.data = [];
    this.event = "";
  }
}
