// A smoke test of a running deployment, for after `npx convex deploy`: does it answer as the app
// needs? The deployment's version route, a public query over the HTTP function API, the HTTP API's
// OpenAPI document, the auth issuer's OpenID configuration and keys, and the Stripe webhook route
// refusing an unsigned body. Read-only: nothing is written.
//   npm run smoke -- https://<deployment>.convex.cloud [https://<deployment>.convex.site]
// (a self-hosted backend: its API address, then its HTTP-actions address).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type SmokeResult = { check: string; ok: boolean; detail: string };

/** The HTTP-actions address of a Convex cloud deployment's API address. */
export function siteUrlOf(cloudUrl: string): string | null {
  const url = new URL(cloudUrl);
  if (!url.hostname.endsWith(".convex.cloud")) return null;
  url.hostname = url.hostname.replace(/\.convex\.cloud$/, ".convex.site");
  return url.origin;
}

async function fetchJson(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text is what the check reports.
  }
  return { status: response.status, body };
}

async function callQuery(cloudUrl: string, path: string): Promise<{ status: number; body: unknown }> {
  return await fetchJson(`${cloudUrl}/api/query`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ path, args: {}, format: "json" }),
  });
}

type Check = { check: string; run: () => Promise<string> };

function checks(cloudUrl: string, siteUrl: string): Check[] {
  return [
    {
      check: "the deployment answers (GET /version)",
      run: async () => {
        const { status, body } = await fetchJson(`${cloudUrl}/version`);
        if (status !== 200) throw new Error(`status ${status}`);
        return `version ${String(body)}`;
      },
    },
    {
      check: "a public query (models:list)",
      run: async () => {
        const { body } = await callQuery(cloudUrl, "models:list");
        const reply = body as { status?: string; value?: { models?: unknown[] }; errorMessage?: string };
        if (reply.status !== "success" || !Array.isArray(reply.value?.models)) {
          throw new Error(reply.errorMessage ?? `unexpected reply ${JSON.stringify(body).slice(0, 200)}`);
        }
        return `${reply.value.models.length} models in the catalog`;
      },
    },
    {
      check: "auth, signed out (auth:isAuthenticated is false)",
      run: async () => {
        const { body } = await callQuery(cloudUrl, "auth:isAuthenticated");
        const reply = body as { status?: string; value?: unknown; errorMessage?: string };
        if (reply.status !== "success" || reply.value !== false) {
          throw new Error(reply.errorMessage ?? `unexpected reply ${JSON.stringify(body).slice(0, 200)}`);
        }
        return "false";
      },
    },
    {
      check: "the auth issuer (/.well-known/openid-configuration and its keys)",
      run: async () => {
        const { status, body } = await fetchJson(`${siteUrl}/.well-known/openid-configuration`);
        const config = body as { issuer?: string; jwks_uri?: string };
        if (status !== 200 || typeof config.jwks_uri !== "string") throw new Error(`status ${status}`);
        if (config.issuer !== siteUrl) {
          throw new Error(`issuer ${config.issuer} is not ${siteUrl}: set CONVEX_SITE_ORIGIN (self-hosted) to it`);
        }
        const keys = (await fetchJson(config.jwks_uri)).body as { keys?: unknown[] };
        if (!Array.isArray(keys.keys) || keys.keys.length === 0) throw new Error("no signing keys: set JWKS");
        return `issuer ${config.issuer}, ${keys.keys.length} key(s)`;
      },
    },
    {
      check: "the HTTP API (/api/v1/openapi.json)",
      run: async () => {
        const { status, body } = await fetchJson(`${siteUrl}/api/v1/openapi.json`);
        const document = body as { openapi?: string; paths?: Record<string, unknown> };
        if (status !== 200 || typeof document.openapi !== "string") throw new Error(`status ${status}`);
        return `OpenAPI ${document.openapi}, ${Object.keys(document.paths ?? {}).length} paths`;
      },
    },
    {
      check: "the Stripe webhook refuses an unsigned body (POST /stripe/webhook)",
      run: async () => {
        const { status } = await fetchJson(`${siteUrl}/stripe/webhook`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ type: "checkout.session.completed" }),
        });
        if (status !== 400) throw new Error(`status ${status}, not 400`);
        return "400";
      },
    },
  ];
}

/** Runs every check against the deployment at `cloudUrl` (its HTTP actions at `siteUrl`). */
export async function smoke(cloudUrl: string, siteUrl: string): Promise<SmokeResult[]> {
  const results: SmokeResult[] = [];
  const origin = (url: string) => url.replace(/\/+$/, "");
  for (const { check, run } of checks(origin(cloudUrl), origin(siteUrl))) {
    try {
      results.push({ check, ok: true, detail: await run() });
    } catch (error) {
      results.push({ check, ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [cloudUrl, givenSite] = process.argv.slice(2);
  const siteUrl = givenSite ?? (cloudUrl === undefined ? null : siteUrlOf(cloudUrl));
  if (cloudUrl === undefined || siteUrl === null) {
    console.error("usage: npm run smoke -- https://<deployment>.convex.cloud [https://<deployment>.convex.site]");
    process.exit(2);
  }
  const results = await smoke(cloudUrl, siteUrl);
  for (const result of results) console.log(`${result.ok ? "ok  " : "FAIL"} ${result.check}: ${result.detail}`);
  process.exit(results.every((result) => result.ok) ? 0 : 1);
}
