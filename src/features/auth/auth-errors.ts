import { appErrorData, errorMessage } from "@/lib/errors";

export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password.";

// The auth library reports these as bare identifiers in the error message.
const KNOWN_AUTH_ERRORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/InvalidSecret|InvalidAccountId|Invalid credentials/, INVALID_CREDENTIALS_MESSAGE],
  [/TooManyFailedAttempts/, "Too many failed sign-in attempts. Please wait a few minutes and try again."],
  [/Account .* already exists/, "An account with this email already exists. Sign in instead."],
  [/Invalid code|Could not verify code|Invalid verification code/i, "That code is invalid or has expired."],
  [/Invalid password/, "Password must be at least 8 characters."],
];

/** The sentence shown in the danger box under an auth form. */
export function authErrorMessage(error: unknown): string {
  const data = appErrorData(error);
  if (data) return data.message;
  const raw = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  for (const [pattern, message] of KNOWN_AUTH_ERRORS) {
    if (pattern.test(raw)) return message;
  }
  return errorMessage(error);
}

/** True when the failure means "no account with this email" (a reset must not reveal that). */
export function isUnknownAccountError(error: unknown): boolean {
  return error instanceof Error && /InvalidAccountId/.test(error.message);
}
