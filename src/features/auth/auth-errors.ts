import { appErrorData, errorMessage } from "@/lib/errors";

export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password.";

// The server (convex/auth.ts) turns the auth library's texts into sentences; these cover a
// backend that still reports the library's bare identifiers.
const KNOWN_AUTH_ERRORS: ReadonlyArray<readonly [string[], string]> = [
  [["InvalidSecret", "InvalidAccountId", "Invalid credentials"], INVALID_CREDENTIALS_MESSAGE],
  [["TooManyFailedAttempts"], "Too many failed sign-in attempts. Please wait a few minutes and try again."],
  [[" already exists"], "An account with this email already exists. Sign in instead."],
  [["Invalid code", "Could not verify code", "Invalid verification code"], "That code is invalid or has expired."],
  [["Invalid password"], "Password must be at least 8 characters."],
  [["is not configured, available providers"], "This way of signing in is not available on this site."],
];

/** The sentence shown in the danger box under an auth form. */
export function authErrorMessage(error: unknown): string {
  const data = appErrorData(error);
  if (data) return data.message;
  const raw = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  for (const [texts, message] of KNOWN_AUTH_ERRORS) {
    if (texts.some((text) => raw.includes(text))) return message;
  }
  return errorMessage(error);
}

/** True when the failure means "no account with this email" (a reset must not reveal that). */
export function isUnknownAccountError(error: unknown): boolean {
  return error instanceof Error && /InvalidAccountId/.test(error.message);
}
