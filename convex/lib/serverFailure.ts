// Failures of the server's own while signing in, as opposed to refusals of what was sent: the
// auth store's mutation ran past its time limit, or kept meeting other sign-ups' writes. Nothing
// was written, so the client tries once more before it shows "Signing in failed".

export const SERVER_FAILURE_REASONS = ["time-out", "conflict"] as const;
export type ServerFailureReason = (typeof SERVER_FAILURE_REASONS)[number];

/** Which server failure a raw error text is, if it is one (the deployment's own messages). */
export function serverFailureOf(raw: string): ServerFailureReason | null {
  if (raw.includes("Function execution timed out")) return "time-out";
  if (raw.includes("changed while this mutation was being run")) return "conflict";
  return null;
}

/** A reason named by a client (its retry says what it retries after), if it is one. */
export function asServerFailureReason(value: unknown): ServerFailureReason | null {
  return SERVER_FAILURE_REASONS.find((reason) => reason === value) ?? null;
}
