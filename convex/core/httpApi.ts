// The HTTP actions of /api/v1 (registered by http.ts through addApiRoutes). Each request: the
// bearer token is hashed and checked (401 unknown or revoked, 429 over its minute's requests),
// then one internal function of publicApi.ts acts with the token's user and space. Every error is
// JSON: { error: { code, message, field?, problems } } with the status of its code; `problems`
// names each wrong field by its exact path in the request ("checks[0].kind"), empty when the
// error is about no field (401, 404, 429, …).
import type { HttpRouter } from "convex/server";
import { ConvexError } from "convex/values";
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import { httpAction, type ActionCtx } from "../_generated/server";
import type { ErrorCode } from "../functions";
import { openApiDocument } from "../lib/openapi";
import { apiFieldPath } from "../lib/apiConfig";
import type { Problem } from "../lib/types";
import { checkoutOf } from "./checkout";
import { API_LIST_LIMIT } from "../lib/limits";
import { API_TOKEN_MESSAGES, bearerTokenOf, hashToken } from "./apiTokens";

export const API_PREFIX = "/api/v1";
/** Request bodies larger than this are refused before they are parsed (a stored test is at most 256 KiB). */
const MAX_BODY_BYTES = 512 * 1024;

const STATUS_OF_CODE: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  INVALID_INPUT: 400,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  PAYMENT_REQUIRED: 402,
  UNAVAILABLE: 503,
};

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body, null, 2), { status, headers: { ...JSON_HEADERS, ...headers } });
}

function errorResponse(
  status: number,
  code: string,
  message: string,
  extra: { field?: string; problems?: Problem[] } = {},
  headers: Record<string, string> = {},
): Response {
  const problems = extra.problems ?? (extra.field ? [{ field: extra.field, message }] : []);
  return json({ error: { code, message, ...(extra.field ? { field: extra.field } : {}), problems } }, status, headers);
}

function invalid(problems: Problem[]): Response {
  return errorResponse(400, "INVALID_INPUT", problems[0]?.message ?? "The configuration is not valid.", {
    ...(problems[0] ? { field: problems[0].field } : {}),
    problems,
  });
}

/** A refusal from the functions (ConvexError with a code) as its HTTP answer; anything else is a 500. */
function fromError(error: unknown): Response {
  if (error instanceof ConvexError && typeof error.data === "object" && error.data !== null) {
    const data = error.data as { code?: ErrorCode; message?: string; field?: string };
    const code = data.code ?? "INVALID_INPUT";
    return errorResponse(STATUS_OF_CODE[code] ?? 400, code, data.message ?? "Request refused.", {
      ...(data.field ? { field: apiFieldPath(data.field) } : {}),
    });
  }
  console.error("API request failed", error);
  return errorResponse(500, "INTERNAL", "Something went wrong on our side. Please try again.");
}

function tooLarge(): Response {
  return errorResponse(
    413,
    "PAYLOAD_TOO_LARGE",
    `The request body is too large: at most ${MAX_BODY_BYTES / 1024} KiB.`,
  );
}

async function bodyOf(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return { ok: false, response: tooLarge() };
  const raw = await request.text();
  if (new TextEncoder().encode(raw).length > MAX_BODY_BYTES) return { ok: false, response: tooLarge() };
  try {
    return { ok: true, value: raw.trim() === "" ? {} : JSON.parse(raw) };
  } catch {
    return { ok: false, response: errorResponse(400, "INVALID_INPUT", "The request body is not valid JSON.") };
  }
}

/** The configuration of a request body: `{ "configuration": {...} }` or the configuration itself. */
function configurationOf(body: unknown): unknown {
  if (typeof body === "object" && body !== null && "configuration" in body) {
    return (body as { configuration: unknown }).configuration;
  }
  return body;
}

type Handler = (ctx: ActionCtx, tokenId: Id<"apiTokens">, request: Request, parts: string[]) => Promise<Response>;

async function authenticated(ctx: ActionCtx, request: Request, handler: Handler, parts: string[]): Promise<Response> {
  const token = bearerTokenOf(request.headers.get("authorization"));
  const unauthorized = () =>
    errorResponse(401, "UNAUTHENTICATED", API_TOKEN_MESSAGES.unauthorized, {}, { "www-authenticate": "Bearer" });
  if (token === null) return unauthorized();
  const outcome = await ctx.runMutation(internal.apiTokens.authenticate, { tokenHash: await hashToken(token) });
  if (!outcome.ok) {
    if (outcome.status === 429) {
      return errorResponse(
        429,
        "RATE_LIMITED",
        API_TOKEN_MESSAGES.rateLimited(outcome.retryAfter),
        {},
        {
          "retry-after": String(outcome.retryAfter),
        },
      );
    }
    return unauthorized();
  }
  try {
    return await handler(ctx, outcome.tokenId, request, parts);
  } catch (error) {
    return fromError(error);
  }
}

const createTest: Handler = async (ctx, tokenId, request) => {
  const body = await bodyOf(request);
  if (!body.ok) return body.response;
  const created = await ctx.runMutation(internal.publicApi.create, {
    tokenId,
    configuration: configurationOf(body.value),
  });
  if (!created.ok) return invalid(created.problems);
  const status = await ctx.runQuery(internal.publicApi.status, { tokenId, testId: created.testId });
  return json({ ...status, paymentRequired: created.paymentRequired }, 201);
};

const quoteConfiguration: Handler = async (ctx, tokenId, request) => {
  const body = await bodyOf(request);
  if (!body.ok) return body.response;
  const quoted = await ctx.runQuery(internal.publicApi.quoteConfiguration, {
    tokenId,
    configuration: configurationOf(body.value),
  });
  if (!quoted.ok) return invalid(quoted.problems);
  const { ok: _ok, ...quote } = quoted;
  return json(quote);
};

/**
 * Starts a test: one that needs nothing is already queued (as Run Test does); one waiting for its
 * payment gets the checkout address a person opens to pay, and starts when paid.
 */
const startTest: Handler = async (ctx, tokenId, _request, [testId]) => {
  const test = await ctx.runQuery(internal.publicApi.startable, { tokenId, testId });
  if (!test.awaitingPayment) {
    const status = await ctx.runQuery(internal.publicApi.status, { tokenId, testId });
    return json({ ...status, started: true });
  }
  const checkout = await checkoutOf(ctx, test.userId, test.testId);
  const status = await ctx.runQuery(internal.publicApi.status, { tokenId, testId });
  return json({ ...status, started: false, checkoutUrl: checkout.url }, 202);
};

const getTest: Handler = async (ctx, tokenId, _request, [testId]) =>
  json(await ctx.runQuery(internal.publicApi.status, { tokenId, testId }));

const getQuote: Handler = async (ctx, tokenId, _request, [testId]) =>
  json(await ctx.runQuery(internal.publicApi.quote, { tokenId, testId }));

const getResults: Handler = async (ctx, tokenId, _request, [testId]) =>
  json(await ctx.runQuery(internal.publicApi.results, { tokenId, testId }));

const listTests: Handler = async (ctx, tokenId, request) => {
  const raw = new URL(request.url).searchParams.get("limit");
  const limit = raw === null ? 20 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > API_LIST_LIMIT) {
    return errorResponse(400, "INVALID_INPUT", `limit must be a whole number from 1 to ${API_LIST_LIMIT}.`, {
      field: "limit",
    });
  }
  return json({ tests: await ctx.runQuery(internal.publicApi.list, { tokenId, limit }) });
};

const listModels: Handler = async (ctx, tokenId) =>
  json({ models: await ctx.runQuery(internal.publicApi.models, { tokenId }) });

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Route {
  method: Method;
  /** Path below /api/v1 split on "/", with ":id" for a test id. */
  pattern: string[];
  handler: Handler;
}

const ROUTES: Route[] = [
  { method: "GET", pattern: ["models"], handler: listModels },
  { method: "GET", pattern: ["tests"], handler: listTests },
  { method: "POST", pattern: ["tests"], handler: createTest },
  { method: "POST", pattern: ["quote"], handler: quoteConfiguration },
  { method: "GET", pattern: ["tests", ":id"], handler: getTest },
  { method: "GET", pattern: ["tests", ":id", "quote"], handler: getQuote },
  { method: "POST", pattern: ["tests", ":id", "start"], handler: startTest },
  { method: "GET", pattern: ["tests", ":id", "results"], handler: getResults },
];

/** A path's segments below /api/v1, percent-decoded; null when one is not valid percent-encoding. */
function segmentsOf(path: string): string[] | null {
  try {
    return path.slice(API_PREFIX.length).split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

/** The route of a method and path, with the path's ids; or the methods the path allows. */
function match(method: string, segments: string[]): { route: Route; ids: string[] } | { allowed: string[] } {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    if (route.pattern.length !== segments.length) continue;
    const ids: string[] = [];
    const fits = route.pattern.every((part, index) => {
      if (part === ":id") {
        ids.push(segments[index]);
        return true;
      }
      return part === segments[index];
    });
    if (!fits) continue;
    if (route.method === method) return { route, ids };
    allowed.push(route.method);
  }
  return { allowed };
}

function dispatch(method: Method) {
  return httpAction(async (ctx, request) => {
    const url = new URL(request.url);
    if (url.pathname === `${API_PREFIX}/openapi.json`) {
      return method === "GET"
        ? json(openApiDocument(url.origin))
        : errorResponse(405, "METHOD_NOT_ALLOWED", "Use GET here.", {}, { allow: "GET" });
    }
    const segments = segmentsOf(url.pathname);
    if (segments === null) {
      return errorResponse(400, "INVALID_INPUT", "The path is not valid percent-encoding.", { field: "path" });
    }
    const found = match(method, segments);
    if ("allowed" in found) {
      return found.allowed.length > 0
        ? errorResponse(
            405,
            "METHOD_NOT_ALLOWED",
            `Use ${found.allowed.join(" or ")} here.`,
            {},
            {
              allow: found.allowed.join(", "),
            },
          )
        : errorResponse(
            404,
            "NOT_FOUND",
            `No such endpoint: ${method} ${url.pathname}. See ${API_PREFIX}/openapi.json.`,
          );
    }
    return await authenticated(ctx, request, found.route.handler, found.ids);
  });
}

/** Registers /api/v1/* on the deployment's site: every method, so a wrong one gets 405 with Allow. */
export function addApiRoutes(http: HttpRouter): void {
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
    http.route({ pathPrefix: `${API_PREFIX}/`, method, handler: dispatch(method) });
  }
}
