import { beforeAll, describe, expect, test, vi } from "vitest";
import { api, internal } from "./_generated/api";
import { GUESSABLE_PASSWORD_MESSAGE, PERSONAL_PASSWORD_MESSAGE } from "./lib/passwordStrength";
import { createUser, createBackend, useAuthKeys } from "./test.helpers";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

// The auth library signs session JWTs with these; a deployment gets them from its environment.
useAuthKeys();
beforeAll(() => {
  process.env.ADMIN_EMAILS = "boss@example.com";
});

async function signIn(t: ReturnType<typeof createBackend>, email: string, password: string, flow: "signUp" | "signIn") {
  return t.action(api.auth.signIn, { provider: "password", params: { email, password, flow } });
}

/** A client holding the token a sign-in returned (its subject names the user and the auth session). */
function holding(t: ReturnType<typeof createBackend>, token: string | undefined) {
  const payload = JSON.parse(Buffer.from(String(token).split(".")[1], "base64url").toString()) as { sub: string };
  return t.withIdentity({ subject: payload.sub });
}

describe("accounts", () => {
  test("sign-up creates a user with tokens and without admin rights", async () => {
    const t = createBackend();
    const result = await signIn(t, "Ada@Example.com", "correct horse", "signUp");
    expect(result.tokens?.token).toBeTruthy();
    expect(result.tokens?.refreshToken).toBeTruthy();
    const users = await t.run((ctx) => ctx.db.query("users").collect());
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: "ada@example.com", isAdmin: false, totalSpentCents: 0 });
  });

  test("sign-in works with the right password and is refused with a wrong one", async () => {
    const t = createBackend();
    await signIn(t, "ada@example.com", "correct horse", "signUp");
    const ok = await signIn(t, "ada@example.com", "correct horse", "signIn");
    expect(ok.tokens?.token).toBeTruthy();
    await expect(signIn(t, "ada@example.com", "wrong password", "signIn")).rejects.toThrow();
    const user = await t.run((ctx) => ctx.db.query("users").first());
    expect(user?.lastSignInAt).toBeGreaterThan(0);
  });

  test("a short password or a malformed email is refused with a clear message", async () => {
    const t = createBackend();
    await expect(signIn(t, "ada@example.com", "short", "signUp")).rejects.toThrow(/at least 8 characters/);
    await expect(signIn(t, "not-an-email", "long enough", "signUp")).rejects.toThrow(/valid email/);
    expect(await t.run((ctx) => ctx.db.query("users").collect())).toHaveLength(0);
  });

  test("a common or trivially guessable password is refused at sign-up, under the field, and no user is made", async () => {
    const t = createBackend();
    for (const password of ["12345678", "aaaaaaaa", "password", "qwertyuiop", "iloveyou1"]) {
      const error = await signIn(t, "ada@example.com", password, "signUp").then(
        () => null,
        (thrown: { data?: unknown }) => thrown.data,
      );
      expect(error, password).toEqual({
        code: "INVALID_INPUT",
        field: "password",
        message: GUESSABLE_PASSWORD_MESSAGE,
      });
    }
    expect(await t.run((ctx) => ctx.db.query("users").collect())).toHaveLength(0);
    expect(await t.run((ctx) => ctx.db.query("authAccounts").collect())).toHaveLength(0);
  });

  test("a password that is the email, or contains its local part, is refused at sign-up and no user is made", async () => {
    const t = createBackend();
    for (const password of ["ada.lovelace@example.com", "Ada.Lovelace2024", "i-am-ada.lovelace"]) {
      const error = await signIn(t, "Ada.Lovelace@example.com", password, "signUp").then(
        () => null,
        (thrown: { data?: unknown }) => thrown.data,
      );
      expect(error, password).toEqual({ code: "INVALID_INPUT", field: "password", message: PERSONAL_PASSWORD_MESSAGE });
    }
    expect(await t.run((ctx) => ctx.db.query("users").collect())).toHaveLength(0);
  });

  test("a brand-new user is greeted 'Welcome' in their first session, 'Welcome back' from the next", async () => {
    const t = createBackend();
    const first = await signIn(t, "ada@example.com", "correct horse", "signUp");
    expect(await holding(t, first.tokens?.token).query(api.users.viewer, {})).toMatchObject({ isNew: true });
    const second = await signIn(t, "ada@example.com", "correct horse", "signIn");
    expect(await holding(t, second.tokens?.token).query(api.users.viewer, {})).toMatchObject({ isNew: false });
    // Accounts made before the count began are returning users.
    const { as } = await createUser(t, "grace@example.com");
    expect(await as.query(api.users.viewer, {})).toMatchObject({ isNew: false });
  });

  test("without an email sender, ADMIN_EMAILS grants nothing at sign-up; the seeded/CLI path does", async () => {
    const t = createBackend();
    // Nobody proved this address: a stranger signing up first with it must not become admin.
    await signIn(t, "Boss@Example.com", "correct horse", "signUp");
    const user = await t.run((ctx) => ctx.db.query("users").first());
    expect(user?.isAdmin).toBe(false);
    await t.mutation(internal.users.grantAdmin, { email: " BOSS@example.com " });
    expect((await t.run((ctx) => ctx.db.get("users", user!._id)))?.isAdmin).toBe(true);
    await expect(t.mutation(internal.users.grantAdmin, { email: "nobody@example.com" })).rejects.toThrow(
      /sign up first/,
    );
  });

  test("the viewer query returns the signed-in user and null when signed out", async () => {
    const t = createBackend();
    expect(await t.query(api.users.viewer, {})).toBeNull();
    const { userId, as } = await createUser(t, "grace@example.com", { isAdmin: true });
    expect(await as.query(api.users.viewer, {})).toMatchObject({
      _id: userId,
      email: "grace@example.com",
      isAdmin: true,
    });
  });

  test("a token is refused by every kind of function once its session is signed out", async () => {
    const t = createBackend();
    const kept = holding(t, (await signIn(t, "ada@example.com", "correct horse", "signUp")).tokens?.token);
    const device = holding(t, (await signIn(t, "ada@example.com", "correct horse", "signIn")).tokens?.token);
    expect(await device.query(api.profile.get, {})).toMatchObject({ email: "ada@example.com" });
    expect(await device.query(api.auth.isAuthenticated, {})).toBe(true);

    await device.action(api.auth.signOut, {});

    await expect(device.query(api.profile.get, {})).rejects.toThrow(/Please sign in/);
    await expect(device.mutation(api.profile.update, { fullName: "Eve", avatarUrl: null })).rejects.toThrow(
      /Please sign in/,
    );
    await expect(device.action(api.apiKeys.check, {})).rejects.toThrow(/Please sign in/);
    expect(await device.query(api.users.viewer, {})).toBeNull();
    expect(await device.query(api.auth.isAuthenticated, {})).toBe(false);
    // The other device's session is untouched.
    expect(await kept.query(api.profile.get, {})).toMatchObject({ email: "ada@example.com", fullName: null });
  });

  test("a token naming another user's session is refused", async () => {
    const t = createBackend();
    await signIn(t, "ada@example.com", "correct horse", "signUp");
    await signIn(t, "bob@example.com", "correct horse", "signUp");
    const [adaSession] = await t.run((ctx) => ctx.db.query("authSessions").collect());
    const bob = await t.run((ctx) =>
      ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", "bob@example.com"))
        .unique(),
    );
    const forged = t.withIdentity({ subject: `${bob!._id}|${adaSession._id}` });
    await expect(forged.query(api.profile.get, {})).rejects.toThrow(/Please sign in/);
  });

  test("without an email sender, the sign-in screens are told email is unavailable", async () => {
    const t = createBackend();
    expect(await t.query(api.users.authOptions, {})).toEqual({ emailEnabled: false });
  });
});
