// @vitest-environment node
// With an email sender configured (Resend's API, here a local stand-in), sign-up asks for a
// verification code and a forgotten password is reset by a one-time code.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { newTest } from "./test.helpers";

const sent: { to: string[]; subject: string; text: string }[] = [];
let resend: Server;

beforeAll(async () => {
  resend = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (request.headers.authorization !== "Bearer re_test_key") {
        response.writeHead(401).end();
        return;
      }
      sent.push(JSON.parse(body));
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ id: `email_${sent.length}` }));
    });
  });
  await new Promise<void>((resolve) => resend.listen(0, "127.0.0.1", resolve));
  process.env.RESEND_API_KEY = "re_test_key";
  process.env.RESEND_BASE_URL = `http://127.0.0.1:${(resend.address() as AddressInfo).port}`;
  const keys = await generateKeyPair("RS256", { extractable: true });
  process.env.JWT_PRIVATE_KEY = (await exportPKCS8(keys.privateKey)).trimEnd().replace(/\n/g, " ");
  process.env.JWKS = JSON.stringify({ keys: [{ use: "sig", ...(await exportJWK(keys.publicKey)) }] });
  process.env.CONVEX_SITE_URL = "http://127.0.0.1:3211";
  process.env.SITE_URL = "http://127.0.0.1:5173";
});
afterAll(async () => {
  delete process.env.RESEND_API_KEY;
  await new Promise((resolve) => resend.close(resolve));
});

function lastCodeFor(email: string): string {
  const message = [...sent].reverse().find((entry) => entry.to.includes(email));
  const code = /Your code: (\d{6})/.exec(message?.text ?? "")?.[1];
  if (!code) throw new Error(`No code was emailed to ${email}`);
  return code;
}

const signIn = (t: ReturnType<typeof newTest>, params: Record<string, string>) =>
  t.action(api.auth.signIn, { provider: "password", params });

describe("accounts with an email sender", () => {
  test("the sign-in screens are told email is available", async () => {
    expect(await newTest().query(api.users.authOptions, {})).toEqual({ emailEnabled: true });
  });

  test("sign-up sends a verification code and signs in only once the code is given", async () => {
    const t = newTest();
    const started = await signIn(t, { email: "ada@example.com", password: "correct horse", flow: "signUp" });
    // No session yet: the client's signIn resolves { signingIn: false } → 'Check Your Email'.
    expect(started.tokens ?? null).toBeNull();
    expect(sent.at(-1)?.subject).toBe("Verify your ModelJury email");
    await expect(signIn(t, { email: "ada@example.com", code: "000000", flow: "email-verification" })).rejects.toThrow();
    const verified = await signIn(t, { email: "ada@example.com", code: lastCodeFor("ada@example.com"), flow: "email-verification" });
    expect(verified.tokens?.token).toBeTruthy();
    const user = await t.run((ctx) => ctx.db.query("users").first());
    expect(user?.emailVerificationTime).toBeGreaterThan(0);
  });

  test("a forgotten password is reset with the emailed code; the old one stops working", async () => {
    const t = newTest();
    await signIn(t, { email: "bob@example.com", password: "first password", flow: "signUp" });
    await signIn(t, { email: "bob@example.com", code: lastCodeFor("bob@example.com"), flow: "email-verification" });
    await signIn(t, { email: "bob@example.com", flow: "reset" });
    expect(sent.at(-1)?.subject).toBe("Reset your ModelJury password");
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
});
