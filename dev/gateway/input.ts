// What the gateway's request parsing shares (requests.ts, settings.ts): the error that becomes an
// HTTP status, and the plain-object test.
export class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
