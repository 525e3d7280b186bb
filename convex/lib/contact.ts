// The contact form's rules (spec part 2 §5), shared by the form and the mutation.
import { z } from "zod";

import { isValidEmail } from "./credentials";
import { problemsOf } from "./forms";
import type { Problem } from "./types";

export const CONTACT_SUBJECTS = [
  "General Inquiry",
  "Technical Support",
  "Billing Question",
  "Feature Request",
  "Bug Report",
  "Partnership",
  "Other",
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

/** The counter shows n/1000; no hard limit at 1000 (spec), only a sane server maximum. */
export const CONTACT_MESSAGE_COUNTER = 1000;
export const CONTACT_LIMITS = { maxNameLength: 100, maxEmailLength: 254, maxMessageLength: 5000 } as const;

/** Per sender email: at most this many messages in the window. */
export const CONTACT_RATE_LIMIT = { messages: 3, windowMs: 10 * 60 * 1000 } as const;

export const CONTACT_MESSAGES = {
  nameRequired: "Please enter your name.",
  nameTooLong: `Name must be ${CONTACT_LIMITS.maxNameLength} characters or fewer.`,
  emailRequired: "Please enter your email address.",
  emailInvalid: "Please enter a valid email address.",
  subjectRequired: "Please choose a subject.",
  messageRequired: "Please enter a message.",
  messageTooLong: `Message must be ${CONTACT_LIMITS.maxMessageLength.toLocaleString("en-US")} characters or fewer.`,
  rateLimited: "You have sent several messages in the last few minutes. Please wait 10 minutes before sending another.",
} as const;

export function isContactSubject(value: string): value is ContactSubject {
  return (CONTACT_SUBJECTS as readonly string[]).includes(value);
}

export interface ContactInput {
  readonly name: string;
  readonly email: string;
  readonly subject: string;
  readonly message: string;
}

/** Spec part 2 §5 (contact): every field required, a valid email, one of the subjects. Lengths count trimmed text. */
export const contactSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, CONTACT_MESSAGES.nameRequired)
    .max(CONTACT_LIMITS.maxNameLength, CONTACT_MESSAGES.nameTooLong),
  email: z
    .string()
    .trim()
    .min(1, CONTACT_MESSAGES.emailRequired)
    .refine(
      (email) => email.length <= CONTACT_LIMITS.maxEmailLength && isValidEmail(email),
      CONTACT_MESSAGES.emailInvalid,
    ),
  subject: z.string().refine(isContactSubject, CONTACT_MESSAGES.subjectRequired),
  message: z
    .string()
    .trim()
    .min(1, CONTACT_MESSAGES.messageRequired)
    .max(CONTACT_LIMITS.maxMessageLength, CONTACT_MESSAGES.messageTooLong),
});

/** Every problem of the form, one per field at most, in field order (the form's schema, ./forms). */
export function validateContact(input: ContactInput): Problem[] {
  return problemsOf(contactSchema, input);
}
