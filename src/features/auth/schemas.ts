import { z } from "zod";

import { CREDENTIAL_MESSAGES, isValidEmail, PASSWORD_RULES } from "../../../convex/lib/credentials";
import { checkedNewPasswordField } from "./password-strength";

// The server's rules (convex/lib/credentials.ts), checked here first; the server stays the judge.
export { PASSWORD_HINT, PASSWORD_RULES } from "../../../convex/lib/credentials";

export const emailField = z
  .string()
  .trim()
  .min(1, CREDENTIAL_MESSAGES.emailRequired)
  .refine((value) => isValidEmail(value.toLowerCase()), CREDENTIAL_MESSAGES.emailInvalid);

/** A password being entered to sign in (no account has a shorter one). */
export const passwordField = z
  .string()
  .min(1, CREDENTIAL_MESSAGES.passwordRequired)
  .min(PASSWORD_RULES.minLength, CREDENTIAL_MESSAGES.passwordTooShort);

/**
 * A password being chosen (sign-up, reset): the rule of convex/lib/forms, which the server parses
 * with too, then the no-common-password rule (convex/lib/passwordStrength), loaded lazily.
 */
export { checkedNewPasswordField };

export const codeField = z
  .string()
  .trim()
  .min(1, "Enter the code from the email.")
  .regex(/^\d{6}$/, "The code has 6 digits.");

export const credentialsSchema = z.object({ email: emailField, password: passwordField });
export const signUpSchema = z.object({ email: emailField, password: checkedNewPasswordField });
export type Credentials = z.infer<typeof credentialsSchema>;
