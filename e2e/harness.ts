/**
 * Browser-test harness: one offline stack per test file on free ports, Debian's Chromium
 * driven by playwright-core, and the sign-up / sign-in steps every journey needs.
 *
 *   const e2e = useE2E();                       // beforeAll starts, afterAll stops
 *   const page = await e2e.newPage();           // a fresh browser context (one user) and page
 *   await signUp(page, uniqueEmail('ada'), PASSWORD);
 *
 * The stack is seeded (e2e.stack.demo / .admin, one completed test) and its models answer at
 * 5% of their latency. Every browser context is closed after each test; a failed test prints
 * the browser's errors and leaves screenshots in test-results/e2e/.
 */

import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { ViteDevServer } from "vite";
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from "vitest";
import type { SettingKey } from "../convex/core/settings";
import type { FunctionArgs } from "convex/server";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import type { MutationCtx } from "../convex/_generated/server";
import { setJobStatus } from "../convex/core/jobs";
import { syncTestSummaryOf } from "../convex/core/testSummaries";
import { startStack, type RunningStack, type StackOptions } from "../dev/stack";
import { loadRouteChunks } from "./route-chunks";
import { trackSubscriptions } from "./subscriptions";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Screenshots of failed tests (git-ignored). */
const FAILURE_DIR = `${REPO_ROOT}test-results/e2e`;
/**
 * The browser tests' own Vite dependency cache, in the checkout (not node_modules, which git
 * worktrees may share through a link): a dev server started elsewhere (npm start, another
 * checkout) with other dependencies or another root would re-bundle it under a running test, and
 * the app's next lazy import fails. One per Vitest worker: npm test runs two journeys at once.
 */
const VITE_CACHE_DIR = `${REPO_ROOT}.vite/e2e-${process.env.VITEST_POOL_ID ?? "1"}`;
/**
 * Every dependency the app can import is bundled when the server starts, so none is found
 * during a test (a late one makes Vite re-bundle and reload the page under the test).
 */
const VITE_OPTIONS = {
  cacheDir: VITE_CACHE_DIR,
  optimizeDeps: {
    entries: ["index.html", "landing.html", "src/**/*.{ts,tsx}", "!src/**/*.test.{ts,tsx}", "!src/test/**"],
  },
};

/**
 * How a journey's stack serves the app: the run's one build (e2e/app-build.ts, a static server
 * per stack, nothing to compile), or with `dev: true` a Vite dev server (a journey that checks
 * what the dev server serves; also the fallback when no build was provided).
 */
export function appServerOptions(dev = false): Pick<StackOptions, "appBuild" | "vite"> {
  const appBuild = dev ? undefined : inject("appBuild");
  return appBuild ? { appBuild } : { vite: VITE_OPTIONS };
}

export const PASSWORD = "e2e-password-123";

/** How long a step may take to show in the browser (the app talks to a local backend). */
export const UI_TIMEOUT_MS = 15_000;
/** Page loads: slower on a busy machine (and with Vite, which serves the app's modules one by one). */
const NAVIGATION_TIMEOUT_MS = 30_000;
/** The first load compiles the app in a Vite dev server; done once per such stack before any test. */
const WARM_UP_TIMEOUT_MS = 90_000;

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface E2E {
  readonly stack: RunningStack;
  readonly browser: Browser;
  /** What the browser reported during the current test: console errors, page errors, failed requests. */
  readonly browserLog: string[];
  /** A browser context of its own (its own storage: one signed-in user), on the app's origin. */
  newContext(): Promise<BrowserContext>;
  /** A page in a new context. */
  newPage(): Promise<Page>;
}

export interface E2EOptions {
  stack?: Omit<StackOptions, "ports">;
  /** Serve the app from a Vite dev server instead of the run's build (see appServerOptions). */
  viteDevServer?: boolean;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  try {
    return await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  } catch (error) {
    throw new Error(
      `Could not launch Chromium at ${executablePath} (set CHROMIUM_PATH, or \`apt-get install -y chromium\`): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** Starts the stack on free ports (seeded, fast models) and Chromium; `close` stops both. */
export async function startE2E(options: E2EOptions = {}): Promise<E2E & { close(): Promise<void> }> {
  const [startedStack, launchedBrowser] = await Promise.allSettled([
    startStack({
      ports: { app: 0, backend: 0, site: 0, gateway: 0, stripe: 0 },
      seed: true,
      latencyScale: 0.05,
      quiet: true,
      watch: false,
      ...appServerOptions(options.viteDevServer),
      ...options.stack,
    }),
    launchChromium(),
  ]);
  if (startedStack.status === "rejected" || launchedBrowser.status === "rejected") {
    if (startedStack.status === "fulfilled") await startedStack.value.close();
    if (launchedBrowser.status === "fulfilled") await launchedBrowser.value.close();
    throw startedStack.status === "rejected" ? startedStack.reason : (launchedBrowser as PromiseRejectedResult).reason;
  }
  const stack = startedStack.value;
  const browser = launchedBrowser.value;
  const browserLog: string[] = [];
  const newContext = async () => {
    const context = await browser.newContext({ baseURL: stack.appUrl });
    context.setDefaultTimeout(UI_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
    context.on("page", (page) => {
      recordBrowserLog(page, browserLog);
      trackSubscriptions(page);
    });
    return context;
  };
  try {
    // A built app has nothing to compile.
    if (stack.vite) await warmUp(browser, stack, stack.vite);
  } catch (error) {
    await browser.close().catch(() => undefined);
    await stack.close();
    throw error;
  }
  return {
    stack,
    browser,
    browserLog,
    newContext,
    newPage: async () => {
      const context = await newContext();
      return await context.newPage();
    },
    close: async () => {
      await browser.close().catch((error: unknown) => console.error("[e2e] closing Chromium:", error));
      await stack.close();
    },
  };
}

/**
 * Registers the hooks for one stack per test file; read it inside tests. A failed test gets
 * the browser's log printed and a screenshot of each open page in test-results/e2e/.
 */
export function useE2E(options: E2EOptions = {}): E2E {
  let running: (E2E & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    running = await startE2E(options);
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(() => {
    running?.browserLog.splice(0);
  });
  afterEach(async (context) => {
    if (running && context.task.result?.state === "fail") await reportFailure(running, context.task.name);
    // Contexts a failing test left open would carry its session into the next test.
    for (const context of running?.browser.contexts() ?? []) await context.close().catch(() => undefined);
  });
  const current = () => {
    if (!running) throw new Error("The e2e stack is not running (use it inside a test).");
    return running;
  };
  return {
    get stack() {
      return current().stack;
    },
    get browser() {
      return current().browser;
    },
    get browserLog() {
      return current().browserLog;
    },
    newContext: () => current().newContext(),
    newPage: () => current().newPage(),
  };
}

/**
 * Signs the demo user in once in a throwaway context, so Vite has compiled the sign-in screens,
 * the shell and the dashboard, then every route's chunk (route-chunks.ts), before the first
 * test's clock starts.
 */
async function warmUp(browser: Browser, stack: RunningStack, vite: ViteDevServer): Promise<void> {
  const context = await browser.newContext({ baseURL: stack.appUrl });
  context.setDefaultTimeout(WARM_UP_TIMEOUT_MS);
  try {
    const page = await context.newPage();
    await page.goto("/login");
    await signIn(page, stack.demo.email, stack.demo.password);
    await page.getByRole("button", { name: "User menu" }).waitFor();
    await loadRouteChunks(page, vite);
  } finally {
    await context.close();
  }
}

function recordBrowserLog(page: Page, log: string[]): void {
  const at = () => new URL(page.url()).pathname;
  page.on("pageerror", (error) => log.push(`page error at ${at()}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") log.push(`console error at ${at()}: ${message.text()}`);
  });
  page.on("requestfailed", (request) => {
    const reason = request.failure()?.errorText ?? "";
    // Requests a navigation cut short are not failures.
    if (reason !== "net::ERR_ABORTED") log.push(`request failed: ${request.method()} ${request.url()} ${reason}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 500)
      log.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
}

async function reportFailure(running: E2E, testName: string): Promise<void> {
  const pages = running.browser.contexts().flatMap((context) => context.pages());
  const slug = testName.replace(/[^a-z0-9]+/gi, "-").slice(0, 80);
  mkdirSync(FAILURE_DIR, { recursive: true });
  const lines = [`[e2e] "${testName}" failed; open pages: ${pages.map((page) => page.url()).join(", ") || "none"}`];
  for (const [index, page] of pages.entries()) {
    const path = `${FAILURE_DIR}/${slug}-${index + 1}.png`;
    const saved = await page.screenshot({ path, fullPage: true, timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (saved) lines.push(`[e2e] screenshot: ${path}`);
  }
  lines.push(...running.browserLog.map((entry) => `[e2e] ${entry}`));
  console.error(lines.join("\n"));
}

let emailCounter = 0;
/** An address no other test of this run uses. */
export function uniqueEmail(prefix = "user"): string {
  emailCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${emailCounter}@example.com`;
}

/** The part of the address the dashboard greets ('Welcome, {name}' at first, then 'Welcome back, {name}'). */
export function greetingNameOf(email: string): string {
  return email.split("@")[0] ?? email;
}

function onPath(page: Page, path: string): boolean {
  return new URL(page.url()).pathname === path;
}

async function submitCredentials(page: Page, email: string, password: string, button: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: button, exact: true }).click();
}

/**
 * Creates an account on /signup (opened unless the page is already there) and waits until
 * the app has moved on from it.
 */
export async function signUp(page: Page, email: string, password: string): Promise<void> {
  if (!onPath(page, "/signup")) await page.goto("/signup");
  await submitCredentials(page, email, password, "Sign Up");
  await page.waitForURL((url) => url.pathname !== "/signup");
}

/**
 * Signs in on /login (opened unless the page is already there, e.g. after a redirect, so its
 * `redirect` parameter is kept) and waits until the app has moved on from it.
 */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  if (!onPath(page, "/login")) await page.goto("/login");
  await submitCredentials(page, email, password, "Sign In");
  await page.waitForURL((url) => url.pathname !== "/login");
}

/**
 * Opens the user menu in the app shell, chooses Sign Out, and waits until the session is gone
 * from storage too (the app leaves the page before the server call ends; a navigation in
 * between would come back signed in).
 */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.waitForFunction(() => !Object.keys(localStorage).some((key) => key.startsWith("__convexAuthJWT")));
}

/** The dev backend's `t.run` with the app's schema types (its accessor is schema-agnostic). */
export async function runOn<T>(e2e: E2E, fn: (ctx: MutationCtx) => Promise<T>): Promise<T> {
  return (await e2e.stack.backend.t.run((ctx) => fn(ctx as unknown as MutationCtx) as never)) as T;
}

/** The seeded demo user's id. */
export async function demoUserId(e2e: E2E): Promise<Id<"users">> {
  return await runOn(e2e, async (ctx) => {
    const user = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", e2e.stack.demo.email))
      .unique();
    return user!._id;
  });
}

/** The demo user calling the backend from Node, in a real auth session (a token without one is refused). */
export async function demoCaller(e2e: E2E) {
  const userId = await demoUserId(e2e);
  const sessionId = await runOn(e2e, (ctx) =>
    ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 3_600_000 }),
  );
  return e2e.stack.backend.t.withIdentity({ subject: `${userId}|${sessionId}`, email: e2e.stack.demo.email });
}

/** A page signed in as the demo user. */
export async function signedInDemo(e2e: E2E): Promise<Page> {
  const page = await e2e.newPage();
  await signIn(page, e2e.stack.demo.email, e2e.stack.demo.password);
  return page;
}

type TestConfiguration = FunctionArgs<typeof api.tests.create>["configuration"];

/**
 * A one-persona, one-topic tagline test over the stack's first three catalog models (two
 * writers, one ranking judge).
 */
export async function taglineConfiguration(
  e2e: E2E,
  name: string,
  options: { responsesPerTopic: number; includeExplanations: boolean },
): Promise<TestConfiguration> {
  const models = await runOn(e2e, async (ctx) => (await ctx.db.query("llmModels").take(3)).map((row) => row.modelId));
  return {
    name,
    taskType: "general",
    userPrompt: "Write a one-line tagline for a bike repair shop.",
    personas: [{ id: "p1", name: "Copywriter", description: "Short and punchy", systemPrompt: "Be brief." }],
    topics: [{ id: "t1", title: "Bikes", description: "Bike repair", prompt: "We repair city bikes." }],
    generatorModels: models.slice(0, 2).map((id) => ({ id, name: id })),
    evaluatorModels: models.slice(2, 3).map((id) => ({ id, name: id })),
    responsesPerTopic: options.responsesPerTopic,
    rankingPrompt: "",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking", includeExplanations: options.includeExplanations },
  };
}

/** A new test of the demo user, queued as if paid (no longer a draft): the next dispatch starts it. */
export async function queuedDemoTest(e2e: E2E, configuration: TestConfiguration): Promise<Id<"tests">> {
  const demo = await demoCaller(e2e);
  const { testId } = await demo.mutation(api.tests.create, { configuration });
  await runOn(e2e, async (ctx) => {
    const job = (await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique())!;
    if (job.status === "pending_payment") {
      await setJobStatus(ctx, job, "queued");
      await ctx.db.patch("tests", testId, { awaitingPayment: undefined });
      // As the payment's confirmation does: History reads the summary row, not the test.
      await syncTestSummaryOf(ctx, testId);
    }
  });
  return testId;
}

/**
 * Sets a deployment setting on the stack's backend (maxProcessingJobs 0 holds the queue) and
 * returns a function that puts the previous value back.
 */
export async function overrideSetting(e2e: E2E, key: SettingKey, value: number): Promise<() => Promise<void>> {
  const previous = await runOn(e2e, async (ctx) => {
    const row = await ctx.db
      .query("settings")
      .withIndex("by_key", (q) => q.eq("key", key))
      .unique();
    if (row) await ctx.db.patch("settings", row._id, { value });
    else await ctx.db.insert("settings", { key, value });
    return row?.value ?? null;
  });
  return async () => {
    await runOn(e2e, async (ctx) => {
      const row = await ctx.db
        .query("settings")
        .withIndex("by_key", (q) => q.eq("key", key))
        .unique();
      if (row && previous === null) await ctx.db.delete("settings", row._id);
      else if (row && previous !== null) await ctx.db.patch("settings", row._id, { value: previous });
    });
  };
}

/** Picks a space (a team's name, or "Personal") in the navigation's switcher. */
export async function chooseSpace(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: /^Space: / }).click();
  await page.getByRole("menuitem", { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) }).click();
  await page.getByRole("button", { name: `Space: ${name}` }).waitFor();
}

/**
 * From the setup page, in the chosen space: the "Marketing Copy Optimization" template cut down
 * to 2 generators (Gemini 2.0 Flash, Llama 3.3 70B), 1 judge (GPT-4.1), 2 personas and 1 topic.
 */
export async function setUpSmallTest(page: Page, testName: string, responsesPerTopic: number): Promise<void> {
  await page.goto("/dashboard/setup");
  await page.getByTestId("template-card-marketing-copy").click();
  const detail = page.getByTestId("template-detail");
  await detail.getByText("OpenAI: GPT-4o", { exact: true }).waitFor();
  await detail.getByRole("button", { name: "Apply This Template" }).click();
  await page.getByTestId("applied-template").getByText("Marketing Copy Optimization").waitFor();
  const section = (id: string) => page.getByTestId(`setup-section-${id}`);
  await section("configuration").getByLabel("Test Name").fill(testName);
  await section("configuration").getByLabel("Responses per Topic").fill(String(responsesPerTopic));
  await section("personas").getByRole("button", { name: "Remove persona B2B Product Marketer" }).click();
  for (const topic of ["Feature launch email", "Paid social ad variants"])
    await section("topics")
      .getByRole("button", { name: `Remove topic ${topic}` })
      .click();
  const generators = section("generators");
  // The template's models are ticked once the catalog is in.
  await expect
    .poll(() => generators.getByRole("checkbox", { checked: true }).count(), { timeout: UI_TIMEOUT_MS })
    .toBe(4);
  for (const name of ["OpenAI: GPT-4o", "Anthropic: Claude Sonnet 4"])
    await generators.getByRole("checkbox", { name, exact: true }).click();
  await section("evaluators").getByRole("checkbox", { name: "Google: Gemini 2.5 Pro", exact: true }).click();
  await expect.poll(() => page.getByTestId("generator-selected-count").textContent()).toMatch(/^2 of \d+ selected$/);
  await expect.poll(() => page.getByTestId("evaluator-selected-count").textContent()).toMatch(/^1 of \d+ selected$/);
}

/** Run Test, Pay in the Complete Payment dialog and at the dev Stripe checkout; the monitor's test id. */
export async function runAndPay(page: Page, stripeUrl: string): Promise<string> {
  const runButton = page.getByRole("button", { name: "Run Test" });
  await expect.poll(() => runButton.isEnabled()).toBe(true);
  await runButton.click();
  await page
    .getByRole("dialog", { name: "Complete Payment" })
    .getByRole("button", { name: /^Pay \$/ })
    .click();
  await page.waitForURL((url) => url.origin === new URL(stripeUrl).origin);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(
    (url) =>
      url.pathname === "/dashboard/monitor" && url.searchParams.has("testId") && !url.searchParams.has("session_id"),
  );
  return new URL(page.url()).searchParams.get("testId")!;
}

/**
 * Why the page scrolls sideways: its width and the elements that stick out of the window while
 * their parent does not (outside any scroll box), or [] when it does not scroll sideways.
 */
export async function sidewaysScroll(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const scroll = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (scroll <= viewport) return [];
    const clipped = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement)
        if (getComputedStyle(parent).overflowX !== "visible") return true;
      return false;
    };
    const sticksOut = (element: Element | null) => !!element && element.getBoundingClientRect().right > viewport + 1;
    const origins = Array.from(document.querySelectorAll("body *"))
      .filter((element) => sticksOut(element) && !sticksOut(element.parentElement) && !clipped(element))
      .slice(0, 6)
      .map((element) => {
        const label = element.getAttribute("aria-label") ?? element.getAttribute("data-testid") ?? "";
        const text = (element.textContent ?? "").trim().slice(0, 40);
        return `${element.tagName.toLowerCase()}${label ? `[${label.slice(0, 40)}]` : ""} "${text}" right=${Math.round(element.getBoundingClientRect().right)}`;
      });
    return [`${location.pathname}: ${scroll}px wide in a ${viewport}px window`, ...origins];
  });
}
