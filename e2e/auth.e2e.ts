// sign up and be greeted, sign out, sign in, the protected-address
// round trip through /login, and two browsers of one user staying in step without a reload.
import { describe, expect, test } from "vitest";
import { greetingNameOf, PASSWORD, signIn, signOut, signUp, uniqueEmail, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();

describe("authentication", () => {
  test("sign up, see the greeting, sign out, sign in again", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("ada");

    await signUp(page, email, PASSWORD);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    // A brand-new user is welcomed, not welcomed back.
    await page.getByRole("heading", { name: `Welcome, ${greetingNameOf(email)}` }).waitFor();

    await signOut(page);
    await page.goto("/dashboard");
    await page.waitForURL((url) => url.pathname === "/login");

    await signIn(page, email, PASSWORD);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    await page.getByRole("heading", { name: `Welcome back, ${greetingNameOf(email)}` }).waitFor();
    await page.context().close();
  });

  test("a protected address opened while signed out leads to /login and back to it after signing in", async () => {
    const page = await e2e.newPage();
    const { email, password } = e2e.stack.demo;
    const protectedAddress = "/dashboard/settings?from=e2e";

    await page.goto(protectedAddress);
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe(protectedAddress);

    await signIn(page, email, password);
    const arrived = new URL(page.url());
    expect(`${arrived.pathname}${arrived.search}`).toBe(protectedAddress);
    await page.getByLabel("Full Name").waitFor();
    await page.context().close();
  });

  test("two browsers of one user: a change made in one shows in the other without a reload", async () => {
    const email = uniqueEmail("grace");
    const first = await e2e.newPage();
    await signUp(first, email, PASSWORD);
    const second = await e2e.newPage();
    await signIn(second, email, PASSWORD);

    // The shell's avatar shows initials: of the email's first two words until a full name is set.
    const [word1, word2] = email.split(/[\s@._-]+/);
    const emailInitials = `${word1![0]}${word2![0]}`.toUpperCase();
    const avatarOfSecond = second.getByRole("button", { name: "User menu" });
    await expect.poll(() => avatarOfSecond.textContent(), { timeout: UI_TIMEOUT_MS }).toBe(emailInitials);
    let secondNavigations = 0;
    second.on("framenavigated", (frame) => {
      if (frame === second.mainFrame()) secondNavigations += 1;
    });

    await first.goto("/dashboard/settings");
    await first.getByLabel("Full Name").fill("Grace Hopper");
    await first.getByRole("button", { name: "Save Changes" }).click();
    await first.getByText("Profile updated successfully!").waitFor();

    await expect.poll(() => avatarOfSecond.textContent(), { timeout: UI_TIMEOUT_MS }).toBe("GH");
    expect(secondNavigations).toBe(0);
    await first.context().close();
    await second.context().close();
  });
});
