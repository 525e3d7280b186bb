// Turning what a Convex call rejects with into a sentence for the user.
// Our functions throw ConvexError({ code, message }); that data reaches the client intact.
// Any other server error arrives as "[CONVEX M(x:y)] [Request ID: …] Server Error\nUncaught Error: …".
import { isErrorCode, type ErrorCode } from "../../convex/lib/errors";

export interface AppErrorData {
  /** The server's code (convex/lib/errors.ts); "ERROR" for a ConvexError that carries none of them. */
  code: ErrorCode | "ERROR";
  message: string;
}

const GENERIC_MESSAGE = "Something went wrong. Please try again.";

/** Convex's argument and return validators report in technical terms (paths, validators). */
export const INVALID_REQUEST_MESSAGE = "Some of what you entered was not accepted. Please check it and try again.";
const VALIDATOR_TEXTS = [
  "ArgumentValidationError",
  "ReturnsValidationError",
  "Value does not match validator",
  "Validator error",
];

/** The `{ code, message }` of a ConvexError thrown by our functions, if that is what this is. */
export function appErrorData(error: unknown): AppErrorData | null {
  if (typeof error !== "object" || error === null || !("data" in error)) return null;
  const data = (error as { data: unknown }).data;
  if (typeof data !== "object" || data === null) return null;
  const { code, message } = data as Record<string, unknown>;
  if (typeof message !== "string" || message === "") return null;
  return { code: isErrorCode(code) ? code : "ERROR", message };
}

/** The readable part of a Convex client error message (no request id, no stack). */
export function cleanErrorMessage(message: string): string {
  if (VALIDATOR_TEXTS.some((text) => message.includes(text))) return INVALID_REQUEST_MESSAGE;
  const uncaught = /Uncaught \w*(?:Error|Exception)?:\s*([^\n]*)/.exec(message);
  if (uncaught?.[1]?.trim()) return uncaught[1].trim();
  const withoutPrefix = message
    .replace(/^\[CONVEX [^\]]*\]\s*/, "")
    .replace(/^\[Request ID: [^\]]*\]\s*/, "")
    .replace(/\s*Called by client\s*$/, "")
    .split("\n")[0]
    ?.trim();
  if (!withoutPrefix || withoutPrefix === "Server Error") return GENERIC_MESSAGE;
  return withoutPrefix;
}

/** What to show for a failed call: the ConvexError message, else the cleaned error message. */
export function errorMessage(error: unknown, fallback = GENERIC_MESSAGE): string {
  const data = appErrorData(error);
  if (data) return data.message;
  if (error instanceof Error && error.message) return cleanErrorMessage(error.message);
  if (typeof error === "string" && error) return cleanErrorMessage(error);
  return fallback;
}
