// Journeys of issue 3: sign up and be greeted, sign out, sign in, the protected-address
// round trip through /login, and two browsers of one user staying in step without a reload.
import { ConvexHttpClient } from 'convex/browser';
import { describe, expect, test } from 'vitest';
import { api } from '../convex/_generated/api';
import { greetingNameOf, PASSWORD, sessionTokenOf, signIn, signOut, signUp, uniqueEmail, UI_TIMEOUT_MS, useE2E } from './harness';

const e2e = useE2E();

describe('authentication', () => {
  test('sign up, see the greeting, sign out, sign in again', async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail('ada');

    await signUp(page, email, PASSWORD);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('heading', { name: `Welcome back, ${greetingNameOf(email)}` }).waitFor();

    await signOut(page);
    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/login');

    await signIn(page, email, PASSWORD);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('heading', { name: `Welcome back, ${greetingNameOf(email)}` }).waitFor();
    await page.context().close();
  });

  test('a protected address opened while signed out leads to /login and back to it after signing in', async () => {
    const page = await e2e.newPage();
    const { email, password } = e2e.stack.demo;
    const protectedAddress = '/dashboard?tab=recent&x=1';

    await page.goto(protectedAddress);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(protectedAddress);

    await signIn(page, email, password);
    const arrived = new URL(page.url());
    expect(arrived.pathname).toBe('/dashboard');
    expect(Object.fromEntries(arrived.searchParams)).toEqual({ tab: 'recent', x: '1' });
    await page.getByRole('heading', { name: `Welcome back, ${greetingNameOf(email)}` }).waitFor();
    await page.context().close();
  });

  test('two browsers of one user: a change made in one shows in the other without a reload', async () => {
    const email = uniqueEmail('grace');
    const first = await e2e.newPage();
    await signUp(first, email, PASSWORD);
    const second = await e2e.newPage();
    await signIn(second, email, PASSWORD);

    // The shell's avatar shows initials: of the email's first two words until a full name is set.
    const [word1, word2] = email.split(/[\s@._-]+/);
    const emailInitials = `${word1![0]}${word2![0]}`.toUpperCase();
    const avatars = [first, second].map((page) => page.getByRole('button', { name: 'User menu' }));
    for (const avatar of avatars) {
      await expect.poll(() => avatar.textContent(), { timeout: UI_TIMEOUT_MS }).toBe(emailInitials);
    }

    // No profile screen yet: the first browser's session renames its user through the backend.
    const client = new ConvexHttpClient(e2e.stack.backendUrl, { skipConvexDeploymentUrlCheck: true, logger: false });
    client.setAuth(await sessionTokenOf(first));
    await client.mutation(api.profile.update, { fullName: 'Grace Hopper', avatarUrl: null });

    let reloaded = 0;
    second.on('framenavigated', (frame) => {
      if (frame === second.mainFrame()) reloaded += 1;
    });
    for (const avatar of avatars) {
      await expect.poll(() => avatar.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('GH');
    }
    expect(reloaded).toBe(0);
    await first.context().close();
    await second.context().close();
  });
});
