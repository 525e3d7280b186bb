// One chat call as the gateway handles it (server.ts): the body read and parsed, the fault drawn,
// the reply's content, and the JSON or OpenRouter-shaped error sent back.
import { type IncomingMessage, type ServerResponse } from "node:http";
import { readBody } from "../http";
import { type CatalogModel } from "./catalog";
import { type Random } from "./random";
import { generateAnswers, generationContent, plainTextContent, shouldFence } from "./answerWriting";
import { rankingContent, ratingContent } from "./judgeReplies";
import { classifyConversation, type ChatMessage, type ReplyKind } from "./replies";
import { HttpError, isRecord } from "./input";
import { type GatewayFaults, type GatewaySettings, judgeProfileFor } from "./settings";
import { repeatedRun } from "./repeatVariance";

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export type Fault = "none" | "429" | "500" | "timeout" | "malformed";

export function drawFault(random: Random, faults: GatewayFaults): Fault {
  const roll = random();
  let edge = faults.rate429;
  if (roll < edge) return "429";
  edge += faults.rate500;
  if (roll < edge) return "500";
  edge += faults.rateTimeout;
  if (roll < edge) return "timeout";
  edge += faults.rateMalformed;
  if (roll < edge) return "malformed";
  return "none";
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function readRequestBody(req: IncomingMessage): Promise<string> {
  return readBody(req, MAX_BODY_BYTES, () => new HttpError(413, "Request body too large"));
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readRequestBody(req);
  try {
    return JSON.parse(body || "null") as unknown;
  } catch {
    throw new HttpError(400, "Request body is not valid JSON");
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** OpenRouter's error body: `{ error: { message, code } }`. */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, code: status } }, headers);
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1]?.trim();
}

export function parseMessages(value: unknown): ChatMessage[] {
  if (!Array.isArray(value) || value.length === 0) throw new HttpError(400, "messages must be a non-empty array");
  return value.map((message, index) => {
    if (!isRecord(message) || typeof message.role !== "string") {
      throw new HttpError(400, `messages[${index}] must have a role`);
    }
    const content = message.content;
    if (typeof content === "string" || content === null || content === undefined) {
      return { role: message.role, content: content ?? null };
    }
    if (Array.isArray(content)) {
      return {
        role: message.role,
        content: content.filter(isRecord).map((part) => ({
          type: typeof part.type === "string" ? part.type : "text",
          ...(typeof part.text === "string" && { text: part.text }),
        })),
      };
    }
    throw new HttpError(400, `messages[${index}].content must be a string or an array of parts`);
  });
}

export function replyContent(
  model: CatalogModel,
  messages: readonly ChatMessage[],
  settings: GatewaySettings,
  /** The request's `seed`: a repeated cell's run (repeatVariance.ts). */
  requestSeed?: number,
): { kind: ReplyKind; content: string } {
  const { parts, request } = classifyConversation(messages);
  switch (request.kind) {
    case "generation": {
      const count = Math.max(0, request.count - settings.answerShortfall);
      const run = repeatedRun(model, parts.system + parts.user, settings, requestSeed);
      const answers = generateAnswers(run.model, parts, count, run.seed);
      return { kind: request.kind, content: generationContent(answers, shouldFence(model.id, parts, run.seed)) };
    }
    case "ranking":
      return {
        kind: request.kind,
        content: rankingContent(model, request.answers, settings.seed, judgeProfileFor(model.id, settings)),
      };
    case "rating":
      return {
        kind: request.kind,
        content: ratingContent(
          model,
          request.criteria,
          request.answer,
          settings.seed,
          judgeProfileFor(model.id, settings),
        ),
      };
    case "text":
      return { kind: request.kind, content: plainTextContent(model, parts, settings.seed) };
  }
}
