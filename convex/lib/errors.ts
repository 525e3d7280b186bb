// The codes a refused call carries (`fail(code, message)` in convex/functions.ts), declared once
// for the server and the client (src/lib/errors.ts), so a code the client reacts to is one the
// server can send. Plain data: nothing here imports server code.

export const ERROR_CODES = [
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "INVALID_INPUT",
  "CONFLICT",
  "RATE_LIMITED",
  "PAYMENT_REQUIRED",
  "UNAVAILABLE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
