// NIST SP 800-63B §5.1.1.2: a new password is compared against a list of commonly used or
// compromised passwords and refused if it is on it. zxcvbn-ts does that and more: its common
// list (49,000 leaked passwords, also matched in l33t and reversed spellings) plus repeats ("aaaaaaaa"),
// sequences ("12345678"), keyboard walks ("qwertyuiop") and dates, each priced in guesses.
//
// Sign-up, reset and change run this on the server (convex/auth.ts, convex/profile.ts); the
// forms load it lazily (src/features/auth/password-strength.ts), as its list is about 200 KB
// gzipped and only a page where a password is chosen needs it.
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

/**
 * zxcvbn's score 2 and up: more than 10^6 guesses, safe against an online attacker who is
 * throttled (core/authThrottle.ts). Scores 0 and 1 are the list's entries and their kin.
 */
export const MIN_PASSWORD_SCORE = 2;

export const GUESSABLE_PASSWORD_MESSAGE =
  "This password is too common or too easy to guess. Choose a longer one, such as a few unrelated words.";

export const PERSONAL_PASSWORD_MESSAGE = "This password contains your email address or name. Choose one that does not.";

/** Who the password belongs to: zxcvbn's user inputs, and what the password must not contain. */
export type PasswordOwner = { email?: string | null; name?: string | null };

/** Parts shorter than this ("al", "jo") are too common inside unrelated words to refuse. */
const MIN_PERSONAL_PART_LENGTH = 3;

let checker: ZxcvbnFactory | null = null;

/** Built on first use: the dictionaries are ranked once per process. */
function zxcvbn(): ZxcvbnFactory {
  checker ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return checker;
}

/** The email, its local part and the name, whole and word by word, lower-cased, without the too-short ones. */
export function personalParts(owner: PasswordOwner): string[] {
  const email = owner.email?.trim().toLowerCase() ?? "";
  const local = email.split("@")[0] ?? "";
  const name = owner.name?.trim().toLowerCase() ?? "";
  const words = [...local.split(/[^\p{L}\p{N}]+/u), ...name.split(/[^\p{L}\p{N}]+/u)];
  const parts = [email, local, name, name.replace(/[^\p{L}\p{N}]+/gu, ""), ...words];
  return [...new Set(parts.filter((part) => part.length >= MIN_PERSONAL_PART_LENGTH))];
}

/**
 * Why this password is too guessable, or null. Call it after the length rule
 * (lib/credentials passwordProblem), which bounds the work to 128 characters.
 * With the owner: a password containing the email's local part or the name is refused outright,
 * and zxcvbn prices its other spellings of them (l33t, reversed) as user inputs.
 */
export function guessablePasswordProblem(password: string, owner: PasswordOwner = {}): string | null {
  const parts = personalParts(owner);
  const lower = password.toLowerCase();
  if (parts.some((part) => lower.includes(part))) return PERSONAL_PASSWORD_MESSAGE;
  return zxcvbn().check(password, parts).score < MIN_PASSWORD_SCORE ? GUESSABLE_PASSWORD_MESSAGE : null;
}
