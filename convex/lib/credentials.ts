// The rules for an email address and a password, shared by sign-up, sign-in, password reset,
// password change (convex/auth.ts, convex/profile.ts) and the forms that show them (src/features/auth).
//
// No regular expression here: an address is checked by length first and then by one linear
// pass, so a 1 MB "email" costs microseconds instead of stalling the backend.

/** RFC 5321's limit on a forward path; longer input is refused before anything else looks at it. */
export const MAX_EMAIL_LENGTH = 254;

export const PASSWORD_RULES = { minLength: 8, maxLength: 128 } as const;

/** Shown under every new-password field (sign-up, reset, change). */
export const PASSWORD_HINT = `${PASSWORD_RULES.minLength} to ${PASSWORD_RULES.maxLength} characters, not only spaces.`;

export const CREDENTIAL_MESSAGES = {
  emailRequired: "Email is required.",
  emailInvalid: "Please enter a valid email address.",
  passwordRequired: "Password is required.",
  passwordTooShort: `Password must be at least ${PASSWORD_RULES.minLength} characters.`,
  passwordTooLong: `Password must be at most ${PASSWORD_RULES.maxLength} characters.`,
  passwordBlank: "Password cannot be only spaces.",
} as const;

function isWhitespace(char: string): boolean {
  return char.trim() === "";
}

/**
 * True for `local@domain.tld`: one `@`, no whitespace, a non-empty local part and a domain of
 * at least two non-empty dot-separated labels. Linear in the length, which is bounded first.
 */
export function isValidEmail(email: string): boolean {
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH) return false;
  const at = email.indexOf("@");
  if (at <= 0 || email.indexOf("@", at + 1) !== -1) return false;
  for (const char of email) if (isWhitespace(char)) return false;
  const labels = email.slice(at + 1).split(".");
  return labels.length >= 2 && labels.every((label) => label.length > 0);
}

/** The address as stored: trimmed (length bounded before trimming) and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.length > MAX_EMAIL_LENGTH * 4 ? email : email.trim().toLowerCase();
}

/** Why this email cannot be used, or null. */
export function emailProblem(email: string): string | null {
  const normalized = normalizeEmail(email);
  if (normalized === "") return CREDENTIAL_MESSAGES.emailRequired;
  return isValidEmail(normalized) ? null : CREDENTIAL_MESSAGES.emailInvalid;
}

/** Why this new password cannot be used, or null (characters are counted as code points). */
export function passwordProblem(password: string): string | null {
  if (password.length === 0) return CREDENTIAL_MESSAGES.passwordRequired;
  // Bounded before counting: a huge string is refused without walking it.
  if (password.length > PASSWORD_RULES.maxLength * 2) return CREDENTIAL_MESSAGES.passwordTooLong;
  const length = [...password].length;
  if (length < PASSWORD_RULES.minLength) return CREDENTIAL_MESSAGES.passwordTooShort;
  if (length > PASSWORD_RULES.maxLength) return CREDENTIAL_MESSAGES.passwordTooLong;
  if (password.trim() === "") return CREDENTIAL_MESSAGES.passwordBlank;
  return null;
}
