// the dashboard home of the demo user (every panel filled) and of a new
// user (every empty state), saving the profile, both billing CSV downloads with their columns,
// a visitor's contact message, a template made public and found by a second user, and the
// public pages at phone width.
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import { PASSWORD, signedInDemo, signUp, uniqueEmail, useE2E } from "./harness";

// A Vite dev server, not the run's build: the landing test names the entry modules it serves.
const e2e = useE2E({ viteDevServer: true });

async function statValue(page: Page, label: string): Promise<string> {
  const card = page.getByTestId("stat-card").filter({ hasText: label });
  return (await card.locator("p").nth(1).textContent()) ?? "";
}

describe("dashboard home", () => {
  test("the demo user sees every panel filled", async () => {
    const page = await signedInDemo(e2e);
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: "Welcome back, demo" }).waitFor();
    await page.getByRole("list", { name: "Recent tests" }).getByRole("link").first().waitFor();
    expect(Number(await statValue(page, "Total Tests"))).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId("stat-card").filter({ hasText: "Total Tests" }).textContent()).toMatch(
      /[1-9]\d* completed/,
    );
    expect(Number(await statValue(page, "AI Responses"))).toBeGreaterThan(0);
    expect(await statValue(page, "Total Spent")).toMatch(/^\$[1-9]\d*\.\d{2}$/);
    expect(Number(await statValue(page, "Saved Assets"))).toBeGreaterThanOrEqual(2);
    expect(await page.getByRole("list", { name: "Recent activity" }).getByRole("listitem").count()).toBeGreaterThan(0);
    expect(await page.getByRole("list", { name: "Saved Personas" }).getByRole("listitem").count()).toBeGreaterThan(0);
    expect(await page.getByRole("list", { name: "Saved Topics" }).getByRole("listitem").count()).toBeGreaterThan(0);
    await page.getByRole("navigation", { name: "Quick actions" }).getByRole("link", { name: "History" }).waitFor();

    // A row opens the test's results.
    await page.getByRole("list", { name: "Recent tests" }).getByRole("link").first().click();
    await page.waitForURL((url) => url.pathname.startsWith("/dashboard/results/"));
  });

  test("a new user sees every empty state, and a persona added in the modal appears at once", async () => {
    const page = await e2e.newPage();
    const email = uniqueEmail("fresh");
    await signUp(page, email, PASSWORD);
    await page.goto("/dashboard");
    await page.getByText("No tests yet").waitFor();
    await page.getByRole("link", { name: "Create Test" }).waitFor();
    await page.getByText("No recent activity").waitFor();
    await page.getByText("No personas saved").waitFor();
    await page.getByText("No topics saved").waitFor();
    expect(await statValue(page, "Total Tests")).toBe("0");

    await page.getByRole("button", { name: "Add persona" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Persona" });
    await dialog.getByLabel("Name").fill("Pirate");
    await dialog.getByLabel("Description").fill("Talks like a pirate");
    await dialog.getByLabel("System Prompt").fill("Answer like a pirate.");
    await dialog.getByRole("button", { name: "Add Persona" }).click();
    await page.getByRole("list", { name: "Saved Personas" }).getByText("Pirate", { exact: true }).waitFor();
    await page.getByRole("list", { name: "Recent activity" }).getByText("Persona saved").waitFor();
  });
});

describe("phone width", () => {
  test("the home, templates, settings and billing pages fit a phone screen", async () => {
    const page = await signedInDemo(e2e);
    await page.setViewportSize({ width: 375, height: 800 });
    const pages: [string, (page: Page) => Promise<void>][] = [
      ["/dashboard", (p) => p.getByRole("list", { name: "Saved Personas" }).waitFor()],
      ["/dashboard/templates", (p) => p.getByTestId("template-card").first().waitFor()],
      ["/dashboard/settings", (p) => p.getByRole("heading", { name: "Change Password" }).waitFor()],
      ["/dashboard/billing", (p) => p.getByRole("table", { name: "Payment history" }).waitFor()],
    ];
    for (const [path, ready] of pages) {
      await page.goto(path);
      await ready(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect([path, overflow]).toEqual([path, 0]);
    }
  });
});

describe("account and billing", () => {
  test("saving the profile shows the banner and the name stays after a reload", async () => {
    const page = await e2e.newPage();
    await signUp(page, uniqueEmail("profile"), PASSWORD);
    await page.goto("/dashboard/settings");
    await page.getByLabel("Full Name").fill("  Ada Lovelace  ");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("Profile updated successfully!").waitFor();
    await page.reload();
    await page.getByLabel("Full Name").waitFor();
    await expect.poll(() => page.getByLabel("Full Name").inputValue(), { timeout: 15_000 }).toBe("Ada Lovelace");
    expect(await page.getByText("Email cannot be changed. Contact support if needed.").count()).toBe(1);
  });

  test("an own OpenRouter key is saved masked, tested against the gateway, makes runs uncharged, and is removed", async (context) => {
    const page = await e2e.newPage();
    const email = uniqueEmail("ownkey");
    await signUp(page, email, PASSWORD);
    await page.goto("/dashboard/settings");
    const usage = page.getByRole("region", { name: "Usage" });
    await usage.getByTestId("own-key-note").waitFor();
    // Needs API_KEY_ENCRYPTION_SECRET on the backend; without it the page says keys can't be stored.
    if (await usage.getByText("Own API keys can't be stored on this deployment.", { exact: false }).count())
      context.skip();
    // A key the gateway refuses is not saved: the field shows the gateway's reason.
    await usage.getByLabel("OpenRouter API key").fill("sk-or-v1-not-the-right-key-0000");
    await usage.getByRole("button", { name: "Save Key" }).click();
    await usage.getByText("Invalid API key. Please check your OpenRouter API key configuration.").waitFor();
    expect(await usage.getByTestId("masked-key").count()).toBe(0);
    const key = e2e.stack.gateway.settings.apiKey;
    await usage.getByLabel("OpenRouter API key").fill(key);
    await usage.getByRole("button", { name: "Save Key" }).click();
    await usage
      .getByTestId("masked-key")
      .filter({ hasText: `••••••••${key.slice(-4)}` })
      .waitFor();
    expect(await page.content()).not.toContain(key);
    await usage.getByRole("button", { name: "Test Key" }).click();
    await usage
      .getByTestId("key-test-result")
      .filter({ hasText: /Your key works: it can see \d+ models\./ })
      .waitFor();

    const userId = await e2e.stack.backend.t.run(
      async (ctx) =>
        (await ctx.db
          .query("users")
          .withIndex("email", (q) => q.eq("email", email))
          .unique())!._id,
    );
    const sessionId = await e2e.stack.backend.t.run((ctx) =>
      ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
    );
    const asUser = e2e.stack.backend.t.withIdentity({ subject: `${userId}|${sessionId}`, email });
    expect(await asUser.query(api.tests.paymentMode, {})).toEqual({ mode: "ownKey" });

    await usage.getByRole("button", { name: "Remove" }).click();
    await usage.getByTestId("masked-key").waitFor({ state: "detached" });
    expect(await asUser.query(api.tests.paymentMode, {})).not.toEqual({ mode: "ownKey" });
  });

  test("both CSV files download with their columns, without estimated_cost or markup_multiplier", async () => {
    const page = await signedInDemo(e2e);
    await page.goto("/dashboard/billing");
    await page.getByRole("table", { name: "Payment history" }).waitFor();
    const files: Record<string, string> = {};
    for (const button of ["Export CSV: payment history", "Export CSV: credit transactions"]) {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: button }).click(),
      ]);
      files[download.suggestedFilename()] = await readFile((await download.path())!, "utf8");
    }
    expect(Object.keys(files).sort()).toEqual(["credit-transactions.csv", "payment-history.csv"]);
    expect(files["payment-history.csv"]!.split(/\r?\n/)[0]).toBe(
      "id,created_at,completed_at,test_id,test_name,amount_cents,amount,currency,status,refunded_at,refund_reason,partly_refunded_cents,net_cents",
    );
    expect(files["credit-transactions.csv"]!.split(/\r?\n/)[0]).toBe(
      "id,created_at,transaction_type,amount_cents,amount,description,test_id",
    );
    for (const text of Object.values(files)) {
      expect(text).not.toMatch(/estimated_cost|markup_multiplier/);
      expect(text.trim().split(/\r?\n/).length).toBeGreaterThan(1);
    }
  });
});

describe("public pages", () => {
  test("a visitor sends a contact message: success banner, form cleared, message stored", async () => {
    const page = await e2e.newPage();
    await page.goto("/contact");
    const sender = uniqueEmail("visitor");
    await page.getByLabel("Name").fill("Grace Hopper");
    await page.getByLabel("Email").fill(sender);
    await page.getByLabel("Subject").selectOption("Feature Request");
    const message = "Please add a cost-versus-quality chart export.";
    await page.getByLabel("Message").fill(message);
    await page
      .getByTestId("message-counter")
      .filter({ hasText: `${message.length}/1000` })
      .waitFor();
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText("Message sent successfully!").waitFor();
    await page.getByText("We'll get back to you within 24 hours.").waitFor();
    expect(await page.getByLabel("Name").inputValue()).toBe("");
    const stored = await e2e.stack.backend.t.run(async (ctx) =>
      (await ctx.db.query("contactMessages").collect()).filter((row) => row.email === sender),
    );
    expect(stored).toHaveLength(1);
  });

  test("the public pages fit a phone screen and the landing links everywhere", async () => {
    const page = await e2e.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    for (const path of ["/", "/features", "/about", "/awards", "/contact"]) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect([path, overflow]).toEqual([path, 0]);
    }
    await page.goto("/");
    await page.getByRole("link", { name: "7th place at a hackathon" }).click();
    await page.waitForURL((url) => url.pathname === "/awards");
    const external = page.getByRole("link", { name: /See the winners/ });
    expect(await external.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await external.getAttribute("target")).toBe("_blank");
  });

  test("a direct load of the landing page runs its own light entry, and its links lead into the app", async () => {
    const page = await e2e.newPage();
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    const entries = await page.evaluate(() =>
      Array.from(document.querySelectorAll('script[type="module"][src]')).map(
        (script) => new URL((script as HTMLScriptElement).src).pathname,
      ),
    );
    expect(entries).toContain("/src/landing-main.ts");
    expect(entries).not.toContain("/src/main.tsx");
    // The page arrives as HTML: React is not loaded, yet the theme switch works.
    const loadedReact = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .some((entry) => /node_modules\/(\.vite\/deps\/)?react-dom/.test(entry.name)),
    );
    expect(loadedReact).toBe(false);
    const toggle = page.getByRole("button", { name: /^Switch to (dark|light) theme$/ });
    const before = await toggle.getAttribute("aria-label");
    await toggle.click();
    expect(await toggle.getAttribute("aria-label")).not.toBe(before);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(
      before === "Switch to dark theme",
    );
    await page.getByRole("link", { name: "Sign In" }).first().click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("heading", { name: "Sign in to your account" }).waitFor();
  });
});

describe("templates", () => {
  test("a template made public is found in the public library by a second user", async () => {
    const owner = await signedInDemo(e2e);
    await owner.goto("/dashboard/templates");
    const card = owner.getByTestId("template-card").first();
    await card.waitFor();
    const name = ((await card.getByRole("heading").textContent()) ?? "").trim();
    expect(name).not.toBe("");
    const makePublic = owner.getByRole("button", { name: `Make Public: ${name}` });
    if (await makePublic.count()) await makePublic.click();
    await owner.getByRole("button", { name: `Make Private: ${name}` }).waitFor();

    const other = await e2e.newPage();
    await signUp(other, uniqueEmail("reader"), PASSWORD);
    await other.goto("/dashboard/templates");
    await other.getByRole("tab", { name: /^Public Library \(\d+\)$/ }).click();
    await other.getByRole("searchbox", { name: "Search templates" }).fill(name);
    await other.getByRole("list", { name: "Public templates" }).getByRole("heading", { name }).waitFor();
    await other.getByRole("button", { name: `Save Copy of ${name}` }).click();
    await other.getByRole("tab", { name: /^My Templates \(1\)$/ }).waitFor();
  });
});
