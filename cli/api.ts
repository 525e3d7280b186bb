// The command-line runner's HTTP client for /api/v1: bearer token, retries on a dropped
// connection and on 429 (after its Retry-After), and every refusal as a CliError naming the
// API's problems field by field.
export const EXIT = { ok: 0, gateFailed: 1, refused: 2, testFailed: 3 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface Client {
  request<T>(method: "GET" | "POST", route: string, body?: unknown): Promise<T>;
  base: string;
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** A client of the deployment at `url`; `fetchImpl` lets a test answer from an in-process backend. */
export function clientOf(url: string, token: string, fetchImpl: Fetch = fetch): Client {
  const base = url.replace(/\/+$/, "");
  return {
    base,
    async request<T>(method: "GET" | "POST", route: string, body?: unknown): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        let response: Response;
        try {
          response = await fetchImpl(`${base}/api/v1${route}`, {
            method,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
        } catch (error) {
          if (attempt < 3) {
            await sleep(1000 * attempt);
            continue;
          }
          throw new CliError(`Could not reach ${base}: ${String(error)}`, EXIT.refused);
        }
        if (response.status === 429 && attempt < 5) {
          await sleep(Number(response.headers.get("retry-after") ?? "5") * 1000);
          continue;
        }
        const text = await response.text();
        let data: unknown;
        try {
          data = text ? JSON.parse(text) : null;
        } catch {
          data = null;
        }
        if (!response.ok) {
          const error = isObject(data) && isObject(data.error) ? data.error : {};
          const problems = Array.isArray(error.problems)
            ? (error.problems as { field: string; message: string }[])
                .map((problem) => `  - ${problem.field}: ${problem.message}`)
                .join("\n")
            : "";
          const message = typeof error.message === "string" ? error.message : `HTTP ${response.status}: ${text}`;
          throw new CliError(
            `${method} ${route} refused (${response.status}): ${message}${problems ? `\n${problems}` : ""}`,
            EXIT.refused,
          );
        }
        return data as T;
      }
    },
  };
}
