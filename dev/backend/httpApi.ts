import type { IncomingMessage, ServerResponse } from "node:http";
import type { UserIdentity } from "convex/server";
import { convexToJson, jsonToConvex } from "convex/values";
import type { JSONValue, Value } from "convex/values";
import type { Engine } from "./engine.js";
import type { FunctionOutcome } from "./outcomes.js";
import { clientAddressOf, describe } from "./outcomes.js";
import type { FunctionKind } from "./modules.js";
import { TokenRejected } from "./identity.js";
import type { TokenVerifier } from "./identity.js";
import { encodeTs } from "./sync.js";

// ConvexHttpClient's marker for "the function threw" (as opposed to a transport error).
const STATUS_CODE_UDF_FAILED = 560;

const FUNCTION_ENDPOINTS: Record<string, FunctionKind | undefined | "any"> = {
  "/api/query": "query",
  "/api/query_at_ts": "query",
  "/api/mutation": "mutation",
  "/api/action": "action",
  "/api/function": "any",
};

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization, Convex-Client",
  "Access-Control-Max-Age": "86400",
};

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json", ...CORS_HEADERS });
  response.end(JSON.stringify(body));
}

/** The identity of a `Bearer` token; throws TokenRejected for a bad one. */
export async function identityFromHeader(
  verifier: TokenVerifier,
  authorization: string | undefined,
): Promise<UserIdentity | null> {
  if (!authorization) return null;
  const match = /^Bearer\s+(.+)$/i.exec(authorization);
  if (!match) throw new TokenRejected("Only Bearer tokens are supported by the local backend");
  return (await verifier.verify(match[1]!)).identity;
}

/**
 * The deployment's HTTP function API as ConvexHttpClient calls it: POST
 * {path, args, format: "convex_encoded_json"} with an optional Bearer token.
 * Returns false when the request is not for it.
 */
export async function handleFunctionApi(
  engine: Engine,
  verifier: TokenVerifier,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const { pathname } = new URL(request.url ?? "/", "http://localhost");
  if (request.method === "OPTIONS" && pathname.startsWith("/api/")) {
    response.writeHead(204, CORS_HEADERS);
    response.end();
    return true;
  }
  if (request.method !== "POST") return false;
  if (pathname === "/api/query_ts") {
    sendJson(response, 200, { ts: encodeTs(await engine.snapshotTs()) });
    return true;
  }
  const endpoint = FUNCTION_ENDPOINTS[pathname];
  if (endpoint === undefined) return false;

  let identity: UserIdentity | null;
  try {
    identity = await identityFromHeader(verifier, request.headers.authorization);
  } catch (error) {
    const message = error instanceof TokenRejected ? error.message : describe(error);
    sendJson(response, 401, { code: "Unauthenticated", message });
    return true;
  }
  let body: { path?: unknown; args?: unknown; format?: unknown };
  let args: Record<string, Value>;
  try {
    body = JSON.parse((await readBody(request)).toString("utf8")) as typeof body;
    if (typeof body.path !== "string") throw new Error("missing function path");
    const encodedArgs = Array.isArray(body.args) ? body.args[0] : body.args;
    const decoded = jsonToConvex((encodedArgs ?? {}) as JSONValue);
    if (typeof decoded !== "object" || decoded === null || Array.isArray(decoded)) {
      throw new Error("The arguments to a Convex function must be an object.");
    }
    args = decoded as Record<string, Value>;
  } catch (error) {
    sendJson(response, 400, {
      code: "BadJsonBody",
      message: error instanceof Error ? error.message : String(error),
    });
    return true;
  }
  const outcome: FunctionOutcome = await engine.runFunction(
    endpoint === "any" ? undefined : endpoint,
    body.path as string,
    args,
    identity,
    { client: clientAddressOf(request) },
  );
  if (outcome.success) {
    sendJson(response, 200, {
      status: "success",
      value: convexToJson(outcome.value),
      logLines: [],
    });
  } else {
    sendJson(response, STATUS_CODE_UDF_FAILED, {
      status: "error",
      errorMessage: outcome.errorMessage,
      ...(outcome.errorData !== undefined ? { errorData: outcome.errorData } : {}),
      logLines: [],
    });
  }
  return true;
}

/**
 * The HTTP actions of convex/http.ts, served on the site port through
 * convex-test's `t.fetch`: method, headers and body in; status, headers and
 * body out. A valid Bearer token becomes the action's identity.
 */
export async function handleHttpAction(
  engine: Engine,
  verifier: TokenVerifier,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let identity: UserIdentity | null = null;
  try {
    identity = await identityFromHeader(verifier, request.headers.authorization);
  } catch {
    // An HTTP action decides for itself what an unauthenticated call means.
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = request.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : await readBody(request);
  const accessor = engine.accessor(identity, clientAddressOf(request));
  // HTTP actions share the plan's cap with actions ("Convex runtime actions and HTTP actions").
  const result = await engine.plan.actions.run(() =>
    engine.enter(() =>
      accessor.fetch(request.url ?? "/", {
        method,
        headers,
        ...(body !== undefined && body.length > 0 ? { body: new Uint8Array(body) } : {}),
      }),
    ),
  );
  const responseHeaders: Record<string, string | string[]> = {};
  result.headers.forEach((value, name) => {
    if (name !== "set-cookie") responseHeaders[name] = value;
  });
  const cookies = result.headers.getSetCookie();
  if (cookies.length > 0) responseHeaders["set-cookie"] = cookies;
  const payload = Buffer.from(await result.arrayBuffer());
  // The body was decoded already; its length is the one we send.
  delete responseHeaders["content-encoding"];
  delete responseHeaders["content-length"];
  delete responseHeaders["transfer-encoding"];
  response.writeHead(result.status, result.statusText, responseHeaders);
  response.end(method === "HEAD" ? undefined : payload);
}
