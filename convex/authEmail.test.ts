// @vitest-environment node
// With an email sender configured (Resend's API, here a local stand-in), sign-up asks for a
// verification code and a forgotten password is reset by a one-time code.
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startMail, type RunningMail } from "../dev/mail/server";
import { api } from "./_generated/api";
import { GUESSABLE_PASSWORD_MESSAGE } from "./lib/passwordStrength";
import { createBackend } from "./test.helpers";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let mailbox: RunningMail;

beforeAll(async () => {
  // The offline stack's mailbox (dev/mail), which speaks Resend's API.
  mailbox = await startMail({ apiKey: "re_test_key" });
  process.env.RESEND_API_KEY = "re_test_key";
  process.env.RESEND_BASE_URL = mailbox.url;
  process.env.ADMIN_EMAILS = "boss@example.com";
  const keys = await generateKeyPair("RS256", { extractable: true });
  process.env.JWT_PRIVATE_KEY = (await exportPKCS8(keys.privateKey)).trimEnd().replace(/\n/g, " ");
  process.env.JWKS = JSON.stringify({ keys: [{ use: "sig", ...(await exportJWK(keys.publicKey)) }] });
  process.env.CONVEX_SITE_URL = "http://127.0.0.1:3211";
  process.env.SITE_URL = "http://127.0.0.1:5173";
});
afterAll(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.ADMIN_EMAILS;
  await mailbox.close();
});

function lastCodeFor(email: string): string {
  const code = mailbox.latestCodeTo(email);
  if (!code) throw new Error(`No code was emailed to ${email}`);
  return code;
}

const signIn = (t: ReturnType<typeof createBackend>, params: Record<string, string>) =>
  t.action(api.auth.signIn, { provider: "password", params });

describe("accounts with an email sender", () => {
  test("the sign-in screens are told email is available", async () => {
    expect(await createBackend().query(api.users.authOptions, {})).toEqual({ emailEnabled: true });
  });

  test("sign-up sends a verification code and signs in only once the code is given", async () => {
    const t = createBackend();
    const started = await signIn(t, { email: "ada@example.com", password: "correct horse", flow: "signUp" });
    // No session yet: the client's signIn resolves { signingIn: false } → 'Check Your Email'.
    expect(started.tokens ?? null).toBeNull();
    expect(mailbox.messages.at(-1)?.subject).toBe("Verify your ModelJury email");
    await expect(signIn(t, { email: "ada@example.com", code: "000000", flow: "email-verification" })).rejects.toThrow();
    const verified = await signIn(t, {
      email: "ada@example.com",
      code: lastCodeFor("ada@example.com"),
      flow: "email-verification",
    });
    expect(verified.tokens?.token).toBeTruthy();
    const user = await t.run((ctx) => ctx.db.query("users").first());
    expect(user?.emailVerificationTime).toBeGreaterThan(0);
  });

  test("a forgotten password is reset with the emailed code; the old one stops working", async () => {
    const t = createBackend();
    await signIn(t, { email: "bob@example.com", password: "first password", flow: "signUp" });
    await signIn(t, { email: "bob@example.com", code: lastCodeFor("bob@example.com"), flow: "email-verification" });
    await signIn(t, { email: "bob@example.com", flow: "reset" });
    expect(mailbox.messages.at(-1)?.subject).toBe("Reset your ModelJury password");
    // A common password is refused as the new one, before the code is used up.
    await expect(
      signIn(t, {
        email: "bob@example.com",
        code: lastCodeFor("bob@example.com"),
        newPassword: "12345678",
        flow: "reset-verification",
      }),
    ).rejects.toThrow(GUESSABLE_PASSWORD_MESSAGE);
    const reset = await signIn(t, {
      email: "bob@example.com",
      code: lastCodeFor("bob@example.com"),
      newPassword: "second password",
      flow: "reset-verification",
    });
    expect(reset.tokens?.token).toBeTruthy();
    await expect(signIn(t, { email: "bob@example.com", password: "first password", flow: "signIn" })).rejects.toThrow();
    const again = await signIn(t, { email: "bob@example.com", password: "second password", flow: "signIn" });
    expect(again.tokens?.token).toBeTruthy();
  });

  test("ADMIN_EMAILS makes an admin only once the address is verified", async () => {
    const t = createBackend();
    await signIn(t, { email: "boss@example.com", password: "correct horse", flow: "signUp" });
    const before = await t.run((ctx) => ctx.db.query("users").first());
    expect(before?.isAdmin).toBe(false);
    await signIn(t, { email: "boss@example.com", code: lastCodeFor("boss@example.com"), flow: "email-verification" });
    expect((await t.run((ctx) => ctx.db.get("users", before!._id)))?.isAdmin).toBe(true);
  });

  test("one-time code sign-in: the code arrives in the mailbox and signs in; a wrong code is a plain sentence", async () => {
    const t = createBackend();
    const started = await t.action(api.auth.signIn, { provider: "email-code", params: { email: "Cleo@Example.com" } });
    expect(started.started).toBe(true);
    expect(mailbox.latestTo("cleo@example.com")?.subject).toBe("Your ModelJury sign-in code");
    await expect(
      t.action(api.auth.signIn, { provider: "email-code", params: { email: "cleo@example.com", code: "000000" } }),
    ).rejects.toThrow("That code is invalid or has expired. Ask for a new one and try again.");
    const code = lastCodeFor("cleo@example.com");
    const signedIn = await t.action(api.auth.signIn, {
      provider: "email-code",
      params: { email: "cleo@example.com", code },
    });
    expect(signedIn.tokens?.token).toBeTruthy();
    const user = await t.run((ctx) => ctx.db.query("users").first());
    expect(user).toMatchObject({ email: "cleo@example.com", isAdmin: false });
    expect(user?.emailVerificationTime).toBeGreaterThan(0);
  });

  test("magic link: the emailed link carries a code that signs in", async () => {
    const t = createBackend();
    await t.action(api.auth.signIn, { provider: "magic-link", params: { email: "dan@example.com" } });
    const message = mailbox.latestTo("dan@example.com");
    expect(message?.subject).toBe("Your ModelJury sign-in link");
    const link = message!.text.split(/\s+/).find((word) => word.startsWith("http://127.0.0.1:5173"));
    const code = new URL(link!).searchParams.get("code");
    expect(code).toBeTruthy();
    // What the app does when it opens the link: sign in with the code alone.
    const signedIn = await t.action(api.auth.signIn, { params: { code: code! } });
    expect(signedIn.tokens?.token).toBeTruthy();
  });
});
