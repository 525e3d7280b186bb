import { Email } from "@convex-dev/auth/providers/Email";
import { Password } from "@convex-dev/auth/providers/Password";
import { convexAuth } from "@convex-dev/auth/server";
import { ConvexError, v } from "convex/values";
import type { MutationCtx } from "./_generated/server";
import { env } from "./env";
import { currentUser, publicQuery } from "./functions";
import { incrementCounter } from "./model/counters";
import { isEmailConfigured, sendEmail } from "./model/email";

const MIN_PASSWORD_LENGTH = 8;

/** A six-digit one-time code sent by email (password reset and email verification). */
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
      await sendEmail({ to: identifier, subject, text: `${intro}\n\nYour code: ${token}\n\nIt expires in 15 minutes.` });
    },
  });
}

const withEmail = isEmailConfigured();

const password = Password({
  profile(params) {
    const email = String(params.email ?? "").trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw new ConvexError({ code: "INVALID_INPUT", message: "Please enter a valid email address." });
    }
    return { email };
  },
  validatePasswordRequirements(value: string) {
    if (value.length < MIN_PASSWORD_LENGTH) {
      throw new ConvexError({
        code: "INVALID_INPUT",
        message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`,
      });
    }
  },
  // Reset and verification need a sender; without one sign-up signs in directly.
  ...(withEmail
    ? {
        reset: emailCode("password-reset", "Reset your ModelJury password", "Use this code to reset your password."),
        verify: emailCode("email-verification", "Verify your ModelJury email", "Use this code to verify your email."),
      }
    : {}),
});

export const { auth, signIn, signOut, store } = convexAuth({
  providers: [password],
  callbacks: {
    async afterUserCreatedOrUpdated(ctx, { userId, existingUserId }) {
      if (existingUserId !== null) return;
      const db = (ctx as unknown as MutationCtx).db;
      const user = await db.get("users", userId);
      const email = user?.email?.toLowerCase() ?? "";
      await db.patch("users", userId, {
        isAdmin: env.adminEmails().has(email),
        totalSpentCents: 0,
        testCount: 0,
        fullName: null,
        avatarUrl: null,
        updatedAt: Date.now(),
      });
      await incrementCounter(ctx as unknown as MutationCtx, "users", 1);
    },
    async beforeSessionCreation(ctx, { userId }) {
      await (ctx as unknown as MutationCtx).db.patch("users", userId, { lastSignInAt: Date.now() });
    },
  },
});

/** The library's own check only looks at the token; this one also needs its session to exist. */
export const isAuthenticated = publicQuery({
  args: {},
  returns: v.boolean(),
  handler: async (ctx) => (await currentUser(ctx)) !== null,
});
