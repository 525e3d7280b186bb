import type { JSONValue, Value } from "convex/values";
import { convexToJson } from "convex/values";
import { ACTION_TIMEOUT_MESSAGE, ACTION_TIMEOUT_MS } from "./plan.js";
import { UserTimeoutError } from "./userCode.js";

// How a call and its outcome travel between clients and the engine: who sent it, what it
// returned or the error message clients get, and the action time limit around a call.

/** Who sent a request, as a deployment tells its functions (ctx.meta.getRequestMetadata). */
export type ClientAddress = { ip: string | null; userAgent: string | null };

/** The address and user agent of an HTTP request or WebSocket upgrade. */
export function clientAddressOf(request: {
  socket: { remoteAddress?: string | undefined };
  headers: { "user-agent"?: string | undefined };
}): ClientAddress {
  return { ip: request.socket.remoteAddress ?? null, userAgent: request.headers["user-agent"] ?? null };
}

export type FunctionOutcome =
  { success: true; value: Value } | { success: false; errorMessage: string; errorData?: JSONValue };

/** An action's outcome, or the deployment's time-out error once it has run ACTION_TIMEOUT_MS. */
export async function withActionTimeout(call: () => Promise<FunctionOutcome>): Promise<FunctionOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<FunctionOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ success: false, errorMessage: ACTION_TIMEOUT_MESSAGE }), ACTION_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([call(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const CONVEX_ERROR = Symbol.for("ConvexError");

/** How a thrown value reaches clients: message, plus data for a ConvexError. */
export function failure(error: unknown): FunctionOutcome & { success: false } {
  // The isolate's own error, not one the function threw: no "Uncaught".
  if (error instanceof UserTimeoutError) return { success: false, errorMessage: error.message };
  if (typeof error === "object" && error !== null && CONVEX_ERROR in error) {
    const convexError = error as unknown as Error & { data: Value };
    return {
      success: false,
      errorMessage: `Uncaught ConvexError: ${convexError.message}`,
      errorData: convexToJson(convexError.data === undefined ? null : convexError.data),
    };
  }
  if (error instanceof Error) {
    return { success: false, errorMessage: `Uncaught ${error.name}: ${error.message}` };
  }
  return { success: false, errorMessage: `Uncaught ${String(error)}` };
}

export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
