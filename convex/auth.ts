import { Email } from "@convex-dev/auth/providers/Email";
import { Password } from "@convex-dev/auth/providers/Password";
import { convexAuth } from "@convex-dev/auth/server";
import { makeFunctionReference } from "convex/server";
import { ConvexError, v, type Value } from "convex/values";
import type { MutationCtx } from "./_generated/server";
import { env } from "./env";
import { currentUser, internalMutation, publicAction, publicQuery, type ErrorCode } from "./functions";
import { emailProblem, isValidEmail, normalizeEmail, passwordProblem } from "./lib/credentials";
import { guessablePasswordProblem, type PasswordOwner } from "./lib/passwordStrength";
import { asServerFailureReason, serverFailureOf, type ServerFailureReason } from "./lib/serverFailure";
import { admit, hashDevice, recordFailure, recordSuccess, type Attempt } from "./core/authThrottle";
import { incrementCounter } from "./core/counters";
import { isEmailConfigured, sendEmail } from "./core/email";

/** A six-digit one-time code sent by email (password reset, email verification, code sign-in). */
function emailCode(id: string, subject: string, intro: string) {
  return Email({
    id,
    maxAge: 60 * 15,
    async generateVerificationToken() {
      const digits = new Uint32Array(1);
      crypto.getRandomValues(digits);
      return String(digits[0] % 1_000_000).padStart(6, "0");
    },
    async sendVerificationRequest({ identifier, token }) {
      await sendEmail({
        to: identifier,
        subject,
        text: `${intro}\n\nYour code: ${token}\n\nIt expires in 15 minutes.`,
      });
    },
  });
}

/** Spec part 1 §2: a link that signs the user in (and creates the account on first use). */
const magicLink = Email({
  id: "magic-link",
  maxAge: 60 * 15,
  // The link carries only its long random code (no email to match, unlike a six-digit code).
  authorize: undefined,
  async sendVerificationRequest({ identifier, url }) {
    await sendEmail({
      to: identifier,
      subject: "Your ModelJury sign-in link",
      text: `Open this link to sign in to ModelJury:\n\n${url}\n\nIt expires in 15 minutes. If you did not ask for it, ignore this email.`,
    });
  },
});

const withEmail = isEmailConfigured();

/**
 * Throws the rule's sentence; the same rule holds for sign-up, reset and change: the length
 * rule (lib/credentials), then no common or guessable password (lib/passwordStrength).
 */
export function assertPasswordAllowed(password: string, field = "password", owner: PasswordOwner = {}): void {
  const problem = passwordProblem(password) ?? guessablePasswordProblem(password, owner);
  if (problem !== null) throw new ConvexError({ code: "INVALID_INPUT", message: problem, field });
}

const password = Password({
  profile(params) {
    const raw = typeof params.email === "string" ? params.email : "";
    const problem = emailProblem(raw);
    if (problem !== null) throw new ConvexError({ code: "INVALID_INPUT", message: problem, field: "email" });
    // The library checks a chosen password without its email (below); here the email is known.
    const chosen =
      params.flow === "signUp" ? params.password : params.flow === "reset-verification" ? params.newPassword : null;
    if (typeof chosen === "string") {
      assertPasswordAllowed(chosen, params.flow === "signUp" ? "password" : "newPassword", { email: raw });
    }
    return { email: normalizeEmail(raw) };
  },
  validatePasswordRequirements(value: string) {
    assertPasswordAllowed(typeof value === "string" ? value : "");
  },
  // Reset and verification need a sender; without one sign-up signs in directly.
  ...(withEmail
    ? {
        reset: emailCode("password-reset", "Reset your ModelJury password", "Use this code to reset your password."),
        verify: emailCode("email-verification", "Verify your ModelJury email", "Use this code to verify your email."),
      }
    : {}),
});

const emailSignInProviders = withEmail
  ? [magicLink, emailCode("email-code", "Your ModelJury sign-in code", "Use this code to sign in to ModelJury.")]
  : [];

const library = convexAuth({
  providers: [password, ...emailSignInProviders],
  // Our own back-off (core/authThrottle.ts) slows guessing without locking the owner out; the
  // library's per-account lock (10 failures an hour by default) stays only as a far backstop.
  signIn: { maxFailedAttempsPerHour: 1000 },
  callbacks: {
    async afterUserCreatedOrUpdated(ctx, { userId, existingUserId, type }) {
      const db = (ctx as unknown as MutationCtx).db;
      if (existingUserId === null) {
        await db.patch("users", userId, {
          isAdmin: false,
          totalSpentCents: 0,
          testCount: 0,
          fullName: null,
          avatarUrl: null,
          signInCount: 0, // counted from here, so only new accounts are greeted "Welcome"
          updatedAt: Date.now(),
        });
        // Counted by a mutation of its own: a shard of the counter read here would make sign-ups at
        // once conflict, and each retry would hash the password again.
        await (ctx as unknown as MutationCtx).scheduler.runAfter(0, internalCountNewUser, {});
      }
      // ADMIN_EMAILS names addresses, so it counts only once the address is proven: a code or
      // link sent to it was used. Without an email sender nothing is proven here; admins are then
      // made with `npx convex run users:grantAdmin` (README, "Admin rights").
      const user = await db.get("users", userId);
      const email = user?.email?.toLowerCase() ?? "";
      const proven = user?.emailVerificationTime !== undefined && (existingUserId === null || type === "verification");
      if (user && proven && user.isAdmin !== true && env.adminEmails().has(email)) {
        await db.patch("users", userId, { isAdmin: true, updatedAt: Date.now() });
      }
    },
    async beforeSessionCreation(ctx, { userId }) {
      const db = (ctx as unknown as MutationCtx).db;
      const signInCount = (await db.get("users", userId))?.signInCount;
      await db.patch("users", userId, {
        lastSignInAt: Date.now(),
        ...(signInCount !== undefined ? { signInCount: signInCount + 1 } : {}),
      });
    },
  },
});

export const { auth, signOut, store } = library;

// ---------------------------------------------------------------------------------------------
// Sign-in: the library's action behind our limits, with its errors turned into sentences.

/** What the auth library throws, as the user should read it. */
const LIBRARY_ERRORS: ReadonlyArray<{ when: (raw: string) => boolean; code: ErrorCode; message: string }> = [
  {
    when: (raw) => raw.startsWith("Provider `") || raw.includes("is not a credentials provider"),
    code: "INVALID_INPUT",
    message: "This way of signing in is not available on this site.",
  },
  {
    when: (raw) => raw === "InvalidAccountId" || raw === "InvalidSecret" || raw === "Invalid credentials",
    code: "UNAUTHENTICATED",
    message: "Invalid email or password.",
  },
  {
    when: (raw) => raw === "TooManyFailedAttempts",
    code: "RATE_LIMITED",
    message: "Too many failed attempts for this account. Please wait a few minutes and try again.",
  },
  {
    when: (raw) => raw.startsWith("Account ") && raw.endsWith(" already exists"),
    code: "CONFLICT",
    message: "An account with this email already exists. Sign in instead.",
  },
  {
    when: (raw) => raw === "Invalid code" || raw === "Could not verify code" || raw.includes("verification code"),
    code: "INVALID_INPUT",
    message: "That code is invalid or has expired. Ask for a new one and try again.",
  },
  {
    when: (raw) => raw.includes("is not enabled for"),
    code: "UNAVAILABLE",
    message: "Email is not set up on this site, so codes and links cannot be sent.",
  },
  {
    when: (raw) =>
      raw.startsWith("Missing `") || raw.startsWith("Cannot sign in: Missing") || raw === "Invalid password",
    code: "INVALID_INPUT",
    message: "Please fill in every field and try again.",
  },
  {
    when: (raw) => raw.startsWith("Could not send email") || raw.startsWith("Email is not configured"),
    code: "UNAVAILABLE",
    message: "We could not send the email just now. Please try again in a few minutes.",
  },
];

const FALLBACK_ERROR = { code: "UNAVAILABLE" as ErrorCode, message: "Signing in failed. Please try again." };

/**
 * Our ConvexErrors pass through; the library's texts become a sentence, the raw one is logged. A
 * failure of the server's own (a time-out, a conflict) carries its reason (`serverFailure`), so
 * the client tries once more; the log says which, and whether this was that retry (`retryAfter`).
 */
export function plainAuthError(
  error: unknown,
  retryAfter: ServerFailureReason | null = null,
): ConvexError<Record<string, Value>> {
  if (error instanceof ConvexError) return error as ConvexError<Record<string, Value>>;
  const raw = error instanceof Error ? error.message : String(error);
  const serverFailure = serverFailureOf(raw);
  if (serverFailure !== null) {
    const attempt = retryAfter === null ? "the client tries once more" : `the client's retry after a ${retryAfter}`;
    console.error(`auth:signIn failed (${serverFailure}; ${attempt}): ${raw.slice(0, 500)}`);
    return new ConvexError({ ...FALLBACK_ERROR, serverFailure });
  }
  const known = LIBRARY_ERRORS.find((entry) => entry.when(raw));
  console.error(`auth:signIn failed: ${raw.slice(0, 500)}`);
  const { code, message } = known ?? FALLBACK_ERROR;
  return new ConvexError({ code, message });
}

/**
 * Raw texts that mean a wrong password or code (these count towards the back-off). A sign-up
 * for an existing account with its password signs in, so "already exists" is a wrong guess.
 */
function isGuessFailure(raw: string): boolean {
  if (raw.startsWith("Account ") && raw.endsWith(" already exists")) return true;
  return ["InvalidSecret", "InvalidAccountId", "Invalid credentials", "Invalid code", "Could not verify code"].includes(
    raw,
  );
}

const MAX_PROVIDER_LENGTH = 64;
const MAX_SECRET_LENGTH = 1024;
const MAX_DEVICE_LENGTH = 128;

type SignInArgs = {
  provider?: string;
  params?: Record<string, unknown>;
  verifier?: string;
  refreshToken?: string;
  calledBy?: string;
};
type SignInResult = {
  redirect?: string;
  verifier?: string;
  tokens?: { token: string; refreshToken: string } | null;
  started?: boolean;
};

function refuse(code: ErrorCode, message: string, field?: string): never {
  throw new ConvexError({ code, message, ...(field ? { field } : {}) });
}

/** What this call tries, for the limits: whose account, and is it a guess or an account/email request. */
function attemptOf(args: SignInArgs, deviceHash: string | null, clientHash: string | null): Attempt | null {
  const params = args.params ?? {};
  const email = typeof params.email === "string" ? normalizeEmail(params.email) : null;
  if (email === null || !isValidEmail(email)) return null;
  const flow = typeof params.flow === "string" ? params.flow : null;
  if (args.provider === "password") {
    if (flow === "signUp") return { email, kind: "signUp", deviceHash, clientHash };
    if (flow === "signIn" || flow === "reset-verification" || flow === "email-verification") {
      return { email, kind: "signIn", deviceHash, clientHash };
    }
    if (flow === "reset") return { email, kind: "emailRequest", deviceHash, clientHash };
    return null;
  }
  if (args.provider === "email-code" || args.provider === "magic-link") {
    return { email, kind: params.code !== undefined ? "signIn" : "emailRequest", deviceHash, clientHash };
  }
  return null;
}

type LibrarySignIn = { _handler: (ctx: unknown, args: SignInArgs) => Promise<SignInResult> };

/**
 * The client's sign-in (and token refresh) action. Bounds its inputs before anything reads
 * them, applies the back-off and deployment-wide limits, runs the auth library, records the
 * outcome, and never lets the library's internal texts reach the user.
 */
export const signIn = publicAction({
  args: {
    provider: v.optional(v.string()),
    params: v.optional(v.any()),
    verifier: v.optional(v.string()),
    refreshToken: v.optional(v.string()),
    calledBy: v.optional(v.string()),
  },
  returns: v.object({
    redirect: v.optional(v.string()),
    verifier: v.optional(v.string()),
    tokens: v.optional(v.union(v.null(), v.object({ token: v.string(), refreshToken: v.string() }))),
    started: v.optional(v.boolean()),
  }),
  handler: async (ctx, rawArgs): Promise<SignInResult> => {
    const args = rawArgs as SignInArgs;
    if (args.provider !== undefined && args.provider.length > MAX_PROVIDER_LENGTH) {
      refuse("INVALID_INPUT", "This way of signing in is not available on this site.");
    }
    const params: Record<string, unknown> =
      args.params !== undefined && typeof args.params === "object" && args.params !== null ? { ...args.params } : {};
    if (typeof params.email === "string") {
      const problem = emailProblem(params.email);
      if (problem !== null) refuse("INVALID_INPUT", problem, "email");
      params.email = normalizeEmail(params.email);
    }
    for (const key of ["password", "newPassword", "code"]) {
      const value = params[key];
      if (value !== undefined && (typeof value !== "string" || value.length > MAX_SECRET_LENGTH)) {
        refuse(
          "INVALID_INPUT",
          key === "code" ? "That code is invalid or has expired." : "Invalid email or password.",
          key,
        );
      }
    }
    const device =
      typeof params.device === "string" && params.device.length <= MAX_DEVICE_LENGTH ? params.device : null;
    delete params.device;
    const retryAfter = asServerFailureReason(params.retryAfter);
    delete params.retryAfter;
    const deviceHash = device === null ? null : await hashDevice(device);

    // The client's address: Convex passes it to actions the client calls (null when none came).
    const { ip } = await ctx.meta.getRequestMetadata();
    const clientHash = ip ? await hashDevice(ip) : null;
    const attempt = attemptOf({ ...args, params }, deviceHash, clientHash);
    if (attempt !== null) {
      const refusal: string | null = await ctx.runMutation(internalAdmit, attempt);
      if (refusal !== null) refuse("RATE_LIMITED", refusal);
    }
    let result: SignInResult;
    try {
      result = await (library.signIn as unknown as LibrarySignIn)._handler(ctx, {
        ...args,
        ...(args.params !== undefined ? { params } : {}),
      });
    } catch (error) {
      const raw = error instanceof Error ? error.message : String(error);
      // A reset asked for an unknown address looks like one for a known address.
      if (attempt?.kind === "emailRequest" && raw === "InvalidAccountId") return { started: true };
      const guessed = attempt?.kind === "signIn" || attempt?.kind === "signUp";
      if (attempt !== null && guessed && isGuessFailure(raw)) {
        await ctx.runMutation(internalRecordFailure, { email: attempt.email });
      }
      throw plainAuthError(error, retryAfter);
    }
    if (retryAfter !== null) console.log(`auth:signIn succeeded on the client's retry after a ${retryAfter}`);
    if (attempt !== null && attempt.kind !== "emailRequest" && result.tokens) {
      await ctx.runMutation(internalRecordSuccess, { email: attempt.email, deviceHash, clientHash });
    }
    return result;
  },
});

// The three steps above run as internal mutations of this module.
export const admitAttempt = internalMutation({
  args: {
    email: v.string(),
    kind: v.union(v.literal("signIn"), v.literal("signUp"), v.literal("emailRequest")),
    deviceHash: v.union(v.null(), v.string()),
    clientHash: v.optional(v.union(v.null(), v.string())),
  },
  returns: v.union(v.null(), v.string()),
  handler: async (ctx, attempt) => await admit(ctx, attempt, Date.now()),
});

export const recordFailedAttempt = internalMutation({
  args: { email: v.string() },
  returns: v.null(),
  handler: async (ctx, { email }) => {
    await recordFailure(ctx, email, Date.now());
    return null;
  },
});

export const recordSignedIn = internalMutation({
  args: {
    email: v.string(),
    deviceHash: v.union(v.null(), v.string()),
    clientHash: v.optional(v.union(v.null(), v.string())),
  },
  returns: v.null(),
  handler: async (ctx, { email, deviceHash, clientHash }) => {
    await recordSuccess(ctx, email, deviceHash, Date.now(), clientHash ?? null);
    return null;
  },
});

export const countNewUser = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    await incrementCounter(ctx, "users", 1);
    return null;
  },
});

// Named directly rather than through `internal`, whose types would depend on this module.
const internalAdmit = makeFunctionReference<"mutation", Attempt, string | null>("auth:admitAttempt");
const internalCountNewUser = makeFunctionReference<"mutation", Record<string, never>, null>("auth:countNewUser");
const internalRecordFailure = makeFunctionReference<"mutation", { email: string }, null>("auth:recordFailedAttempt");
const internalRecordSuccess = makeFunctionReference<
  "mutation",
  { email: string; deviceHash: string | null; clientHash: string | null },
  null
>("auth:recordSignedIn");

/** The library's own check only looks at the token; this one also needs its session to exist. */
export const isAuthenticated = publicQuery({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) => (await currentUser(ctx)) !== null,
});
