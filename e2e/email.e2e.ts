// Email offline (issue 15, item 6) and ended sessions (issue 11, item 6): with MJ_EMAIL=on the
// stack's dev mailbox receives what the app sends; a newcomer signs up with the emailed code
// read on the inbox page, and signs in with a magic link clicked there. A token whose session
// was signed out is refused by the backend at once.
import { ConvexHttpClient } from 'convex/browser';
import { afterAll, describe, expect, test } from 'vitest';
import { api } from '../convex/_generated/api';
import { PASSWORD, uniqueEmail, UI_TIMEOUT_MS, useE2E } from './harness';

// Read by dev/stack.ts when this file's stack starts (files run one at a time).
process.env.MJ_EMAIL = 'on';
const e2e = useE2E();
afterAll(() => {
  delete process.env.MJ_EMAIL;
});

describe('email offline', () => {
  test('sign up with the code from the dev inbox, then sign in with a magic link clicked there', async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail('mail');
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor({ timeout: UI_TIMEOUT_MS });

    // The inbox page lists the message; its page shows the code.
    const inbox = await page.context().newPage();
    await inbox.goto(`${e2e.stack.mail.url}/?to=${encodeURIComponent(email)}`);
    await inbox.getByRole('link', { name: 'Verify your ModelJury email' }).click();
    const code = (await inbox.getByTestId('code').textContent())!.trim();
    expect(code).toMatch(/^\d{6}$/);

    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: UI_TIMEOUT_MS });

    // A fresh browser: magic link from the login screen.
    const other = await e2e.newPage();
    await other.goto('/login');
    await other.getByRole('button', { name: 'Email Me a Magic Link' }).click({ timeout: UI_TIMEOUT_MS });
    await other.getByLabel('Email').fill(email);
    await other.getByRole('button', { name: 'Send Magic Link' }).click();
    await other.getByTestId('magic-link-sent').filter({ hasText: 'Check your email for the magic link' }).waitFor();
    const linkPage = await other.context().newPage();
    await linkPage.goto(`${e2e.stack.mail.url}/?to=${encodeURIComponent(email)}`);
    await linkPage.getByRole('link', { name: 'Your ModelJury sign-in link' }).click();
    await linkPage.getByRole('link', { name: /\?code=/ }).click();
    await linkPage.waitForURL((url) => url.pathname === '/dashboard', { timeout: UI_TIMEOUT_MS });
  });

  test("a token is refused by the backend as soon as its session signs out", async () => {
    const client = new ConvexHttpClient(e2e.stack.backendUrl, { skipConvexDeploymentUrlCheck: true, logger: false });
    const { email, password } = e2e.stack.demo;
    const result = await client.action(api.auth.signIn, { provider: 'password', params: { email, password, flow: 'signIn' } });
    client.setAuth(result.tokens!.token);
    expect(await client.query(api.profile.get, {})).toMatchObject({ email });
    await client.action(api.auth.signOut, {});
    await expect(client.query(api.profile.get, {})).rejects.toThrow(/Please sign in/);
    expect(await client.query(api.users.viewer, {})).toBeNull();
  });
});
