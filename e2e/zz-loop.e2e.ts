import { expect, test } from 'vitest';
import { greetingNameOf, PASSWORD, signIn, signOut, signUp, uniqueEmail, useE2E } from './harness';
const e2e = useE2E();
test('loop', async () => {
  for (let i = 0; i < 12; i++) {
    const page = await e2e.newPage();
    const email = uniqueEmail('ada');
    const step = async (name: string, fn: () => Promise<unknown>) => {
      const t0 = Date.now();
      try { await fn(); } catch (error) {
        console.log(`iteration ${i} step ${name} failed after ${Date.now() - t0} ms at ${page.url()}`);
        console.log((await page.content()).slice(0, 3000));
        await page.screenshot({ path: `/tmp/loop-fail-${i}.png` });
        throw error;
      }
      const took = Date.now() - t0; if (took > 1500) console.log(`iteration ${i} ${name} took ${took}`);
    };
    await step('signUp', () => signUp(page, email, PASSWORD));
    await step('greet', () => page.getByRole('heading', { name: `Welcome back, ${greetingNameOf(email)}` }).waitFor());
    await step('signOut', () => signOut(page));
    await step('goto', () => page.goto('/dashboard'));
    await step('toLogin', () => page.waitForURL((url) => url.pathname === '/login'));
    await step('signIn', () => signIn(page, email, PASSWORD));
    await step('greet2', () => page.getByRole('heading', { name: `Welcome back, ${greetingNameOf(email)}` }).waitFor());
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.context().close();
  }
}, 600_000);
