// Email offline and ended sessions: with MJ_EMAIL=on the
// stack's dev mailbox receives what the app sends; a newcomer signs up with the emailed code
// read on the inbox page, and signs in with a magic link clicked there. A token whose session
// was signed out is refused by the backend at once.
import { ConvexHttpClient } from "convex/browser";
import { afterAll, describe, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import { PASSWORD, signIn, uniqueEmail, UI_TIMEOUT_MS, useE2E } from "./harness";

// Read by dev/stack.ts when this file's stack starts (files run one at a time).
process.env.MJ_EMAIL = "on";
const e2e = useE2E();
afterAll(() => {
  delete process.env.MJ_EMAIL;
});

describe("email offline", () => {
  test("sign up with the code from the dev inbox, then sign in with a magic link clicked there", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("mail");
    await page.goto("/signup");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByRole("heading", { name: "Check Your Email" }).waitFor({ timeout: UI_TIMEOUT_MS });

    // The inbox page lists the message; its page shows the code.
    const inbox = await page.context().newPage();
    await inbox.goto(`${e2e.stack.mail.url}/?to=${encodeURIComponent(email)}`);
    await inbox.getByRole("link", { name: "Verify your ModelJury email" }).click();
    const code = (await inbox.getByTestId("code").textContent())!.trim();
    expect(code).toMatch(/^\d{6}$/);

    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Verify Email" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard", { timeout: UI_TIMEOUT_MS });

    // A fresh browser: magic link from the login screen.
    const other = await e2e.newPage();
    await other.goto("/login");
    await other.getByRole("button", { name: "Email Me a Magic Link" }).click({ timeout: UI_TIMEOUT_MS });
    await other.getByLabel("Email").fill(email);
    await other.getByRole("button", { name: "Send Magic Link" }).click();
    await other.getByTestId("magic-link-sent").filter({ hasText: "Check your email for the magic link" }).waitFor();
    const linkPage = await other.context().newPage();
    await linkPage.goto(`${e2e.stack.mail.url}/?to=${encodeURIComponent(email)}`);
    await linkPage.getByRole("link", { name: "Your ModelJury sign-in link" }).click();
    await linkPage.getByRole("link", { name: /\?code=/ }).click();
    await linkPage.waitForURL((url) => url.pathname === "/dashboard", { timeout: UI_TIMEOUT_MS });
  });

  test("a token is refused by the backend as soon as its session signs out", async () => {
    const client = new ConvexHttpClient(e2e.stack.backendUrl, { skipConvexDeploymentUrlCheck: true, logger: false });
    const { email, password } = e2e.stack.demo;
    const result = await client.action(api.auth.signIn, {
      provider: "password",
      params: { email, password, flow: "signIn" },
    });
    client.setAuth(result.tokens!.token);
    expect(await client.query(api.profile.get, {})).toMatchObject({ email });
    await client.action(api.auth.signOut, {});
    await expect(client.query(api.profile.get, {})).rejects.toThrow(/Please sign in/);
    expect(await client.query(api.users.viewer, {})).toBeNull();
  });

  test("a password change signs the other browser out at once", async () => {
    const { email, password } = e2e.stack.demo;
    const [here, there] = [await e2e.newPage(), await e2e.newPage()];
    for (const page of [here, there]) await signIn(page, email, password);
    await there.goto("/dashboard/history");
    await there.getByRole("heading", { name: "Test History" }).waitFor({ timeout: UI_TIMEOUT_MS });

    await here.goto("/dashboard/settings");
    await here.getByLabel("Current Password").fill(password);
    await here.getByLabel("New Password", { exact: true }).fill("changed-password-123");
    await here.getByLabel("Confirm New Password").fill("changed-password-123");
    await here.getByRole("button", { name: "Change Password" }).click();
    await here.getByText("Password changed. Other devices have been signed out.").waitFor({ timeout: UI_TIMEOUT_MS });

    // The other browser's token had most of its hour left; it is signed out now, not then.
    await there.waitForURL((url) => url.pathname === "/login" || url.pathname === "/", { timeout: UI_TIMEOUT_MS });
    await there.goto("/dashboard");
    await there.waitForURL((url) => url.pathname === "/login", { timeout: UI_TIMEOUT_MS });
    // This browser stays signed in.
    await here.goto("/dashboard");
    await here.getByRole("heading", { name: /^Welcome back/ }).waitFor({ timeout: UI_TIMEOUT_MS });
  });
});
