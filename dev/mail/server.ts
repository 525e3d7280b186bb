// The offline stack's mailbox: it accepts email the way Resend does (POST /emails with a bearer
// key and { from, to, subject, text, html?, reply_to? }, answering { id }), which is exactly
// what convex/core/email.ts sends, and shows what arrived on a small inbox page. With it,
// email verification, password reset, magic-link and code sign-in and the contact
// notifications all work without an account anywhere.
//
//   GET  /                    the inbox page (newest first; ?to=address filters)
//   GET  /messages/<id>       one message
//   GET  /api/messages        the messages as JSON (?to=address filters), for tests and scripts
//   DELETE /api/messages      empties the mailbox
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "../http";

export const DEFAULT_MAIL_API_KEY = "re_dev_mailbox";

export interface MailMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  replyTo?: string;
  receivedAt: number;
}

export interface MailOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  /** Oldest messages are dropped past this many. */
  maxMessages?: number;
}

export interface RunningMail {
  url: string;
  port: number;
  apiKey: string;
  messages: MailMessage[];
  /** The newest message sent to `address`, if any. */
  latestTo(address: string): MailMessage | undefined;
  /** The six-digit code in the newest message to `address`. */
  latestCodeTo(address: string): string | undefined;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 256 * 1024;
const MAX_FIELD = 20_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Text with its http(s) links made clickable (escaped first; links end at whitespace). */
function linkify(text: string): string {
  return text
    .split(/(\s+)/)
    .map((part) => {
      const escaped = escapeHtml(part);
      return part.startsWith("http://") || part.startsWith("https://")
        ? `<a href="${escaped}">${escaped}</a>`
        : escaped;
    })
    .join("");
}

/** The first run of exactly six digits, without a pattern that could backtrack. */
export function sixDigitCode(text: string): string | undefined {
  let run = "";
  for (const char of `${text} `) {
    if (char >= "0" && char <= "9") {
      run += char;
      continue;
    }
    if (run.length === 6) return run;
    run = "";
  }
  return undefined;
}

function asString(value: unknown, field: string): string {
  if (typeof value !== "string") throw new HttpError(422, `The \`${field}\` field is required.`);
  return value.slice(0, MAX_FIELD);
}

function parseMessage(body: string, id: string): MailMessage {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body) as Record<string, unknown>;
  } catch {
    throw new HttpError(400, "The body must be JSON.");
  }
  const toValue = json.to;
  const to = (Array.isArray(toValue) ? toValue : [toValue]).map((address) => asString(address, "to"));
  if (to.length === 0) throw new HttpError(422, "The `to` field is required.");
  const text = typeof json.text === "string" ? json.text : typeof json.html === "string" ? json.html : "";
  return {
    id,
    from: asString(json.from, "from"),
    to,
    subject: asString(json.subject, "subject"),
    text: text.slice(0, MAX_FIELD),
    ...(typeof json.reply_to === "string" ? { replyTo: json.reply_to.slice(0, MAX_FIELD) } : {}),
    receivedAt: Date.now(),
  };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#111}
a{color:#2563eb}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #ddd}
pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem;border-radius:6px}.code{font:600 1.6rem ui-monospace,monospace;letter-spacing:.2em}
.muted{color:#666}</style></head><body>${body}</body></html>`;
}

function inboxPage(messages: MailMessage[], to: string | null): string {
  const rows = messages
    .map(
      (message) =>
        `<tr><td>${escapeHtml(message.to.join(", "))}</td><td><a href="/messages/${message.id}">${escapeHtml(message.subject)}</a></td>` +
        `<td class="muted">${new Date(message.receivedAt).toLocaleTimeString("en-GB")}</td></tr>`,
    )
    .join("");
  const heading = to ? `Inbox of ${escapeHtml(to)}` : "Dev mailbox";
  const list = rows
    ? `<table><thead><tr><th>To</th><th>Subject</th><th>Received</th></tr></thead><tbody>${rows}</tbody></table>`
    : "<p>No email yet. Sign up, ask for a password reset, a sign-in link or code, or send a contact message.</p>";
  return page(
    heading,
    `<h1>${heading}</h1><p class="muted">Everything ModelJury sends while running offline lands here. Reload to see new mail.</p>${list}`,
  );
}

function messagePage(message: MailMessage): string {
  const code = sixDigitCode(message.text);
  return page(
    message.subject,
    `<p><a href="/">← Inbox</a></p><h1>${escapeHtml(message.subject)}</h1>` +
      `<p class="muted">From ${escapeHtml(message.from)} to ${escapeHtml(message.to.join(", "))}` +
      `${message.replyTo ? `, reply to ${escapeHtml(message.replyTo)}` : ""}</p>` +
      (code ? `<p>Code: <span class="code" data-testid="code">${code}</span></p>` : "") +
      `<pre>${linkify(message.text)}</pre>`,
  );
}

function send(res: ServerResponse, status: number, type: string, body: string) {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" }).end(body);
}

export async function startMail(options: MailOptions = {}): Promise<RunningMail> {
  const apiKey = options.apiKey ?? DEFAULT_MAIL_API_KEY;
  const maxMessages = options.maxMessages ?? 500;
  const messages: MailMessage[] = [];
  let counter = 0;

  const filtered = (to: string | null) =>
    [...messages]
      .reverse()
      .filter((message) => to === null || message.to.some((address) => address.toLowerCase() === to.toLowerCase()));

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://mail");
    const to = url.searchParams.get("to");
    if (req.method === "POST" && url.pathname === "/emails") {
      if (req.headers.authorization !== `Bearer ${apiKey}`) throw new HttpError(401, "API key is invalid");
      const body = await readBody(req, MAX_BODY_BYTES, () => new HttpError(413, "The email is too large."));
      const message = parseMessage(body, `email_${++counter}`);
      messages.push(message);
      if (messages.length > maxMessages) messages.splice(0, messages.length - maxMessages);
      send(res, 200, "application/json", JSON.stringify({ id: message.id }));
      return;
    }
    if (req.method === "GET" && url.pathname === "/api/messages") {
      send(res, 200, "application/json", JSON.stringify(filtered(to)));
      return;
    }
    if (req.method === "DELETE" && url.pathname === "/api/messages") {
      messages.splice(0);
      send(res, 200, "application/json", "{}");
      return;
    }
    if (req.method === "GET" && url.pathname === "/") {
      send(res, 200, "text/html; charset=utf-8", inboxPage(filtered(to), to));
      return;
    }
    if (req.method === "GET" && url.pathname.startsWith("/messages/")) {
      const message = messages.find((entry) => entry.id === url.pathname.slice("/messages/".length));
      if (!message) throw new HttpError(404, "No such message.");
      send(res, 200, "text/html; charset=utf-8", messagePage(message));
      return;
    }
    throw new HttpError(404, "Not found.");
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : "Internal error";
      if (!res.headersSent)
        send(res, status, "application/json", JSON.stringify({ statusCode: status, name: "error", message }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const latestTo = (address: string) => filtered(address)[0];
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    port,
    apiKey,
    messages,
    latestTo,
    latestCodeTo: (address) => {
      const message = latestTo(address);
      return message ? sixDigitCode(message.text) : undefined;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
