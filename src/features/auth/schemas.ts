import { z } from "zod";

// Mirrors the server's rule in convex/auth.ts; the server stays the judge.
export const MIN_PASSWORD_LENGTH = 8;

export const emailField = z
  .string()
  .trim()
  .min(1, "Email is required.")
  .pipe(z.email("Please enter a valid email address."));

export const passwordField = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`);

export const codeField = z
  .string()
  .trim()
  .min(1, "Enter the code from the email.")
  .regex(/^\d{6}$/, "The code has 6 digits.");

export const credentialsSchema = z.object({ email: emailField, password: passwordField });
export type Credentials = z.infer<typeof credentialsSchema>;
