import { z } from "zod";

import { passwordProblem } from "../../../convex/lib/credentials";
import { newPasswordField } from "../../../convex/lib/forms";

type PasswordStrength = typeof import("../../../convex/lib/passwordStrength");

let loading: Promise<PasswordStrength> | null = null;

/**
 * The server's no-common-password rule (convex/lib/passwordStrength), fetched on first use: its
 * list of leaked passwords is about 200 KB gzipped, and only the forms that set a password need it.
 */
export function loadPasswordStrength(): Promise<PasswordStrength> {
  loading ??= import("../../../convex/lib/passwordStrength").catch((error: unknown) => {
    loading = null; // a failed download is tried again on the next submit
    throw error;
  });
  return loading;
}

/** Why this new password is too common or guessable, or null; null too if the rule could not load (the server still checks). */
export async function guessablePasswordProblem(password: string): Promise<string | null> {
  if (passwordProblem(password) !== null) return null; // the length rule speaks first
  try {
    return (await loadPasswordStrength()).guessablePasswordProblem(password);
  } catch {
    return null;
  }
}

/** Adds the rule's sentence under `path` (forms parse asynchronously: zodResolver's default). */
export async function refineGuessable(password: string, context: z.RefinementCtx, path: string[] = []): Promise<void> {
  const problem = await guessablePasswordProblem(password);
  if (problem !== null) context.addIssue({ code: "custom", message: problem, path });
}

/** A password being chosen on the sign-up and reset forms: the length rule, then no common password. */
export const checkedNewPasswordField = newPasswordField.superRefine(async (value, context) => {
  await refineGuessable(value, context);
});
