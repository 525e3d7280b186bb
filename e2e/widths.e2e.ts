// Tablet and phone widths (issue 34): every signed-in page, the marketing pages, the shared page
// and the compare page fit at 360, 390, 768 and 1024 px without sideways scrolling (wide tables
// scroll inside their own box or fold into cards); the header keeps the avatar in the window and
// "Test Setup" on one line; the compare page at 390 px shows Difference, interval and Verdict
// first; the latency chart names every model in full; and axe finds no serious or critical
// accessibility violation on any page. One stack, one signed-in browser context, one page per
// address resized through the widths.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { demoCaller, demoUserId, queuedDemoTest, runOn, sidewaysScroll, signIn, useE2E } from "./harness";

const e2e = useE2E();
const WIDTHS = [360, 390, 768, 1024] as const;
/** The width axe looks at each page in (the phone layout, where most is folded or hidden). */
const AXE_WIDTH = 390;
const RUN_TIMEOUT_MS = 90_000;
/** A page's first visit: Vite compiles its modules on a busy machine. */
const FIRST_LOAD = { timeout: 60_000 };
const SECOND_TEST = "Width check: a second tagline run to compare with the first";

interface Screen {
  path: string;
  /** What shows once the page has its data. */
  ready: (page: Page) => Promise<unknown>;
  signedIn: boolean;
}

/** The demo's seeded finished test, and a second small one run to completion now. */
async function finishedTests(): Promise<{ first: Id<"tests">; second: Id<"tests"> }> {
  const userId = await demoUserId(e2e);
  const first = await runOn(e2e, async (ctx) => {
    const tests = await ctx.db
      .query("tests")
      .withIndex("by_user_status", (q) => q.eq("userId", userId).eq("status", "completed"))
      .take(1);
    return tests[0]?._id ?? null;
  });
  if (!first) throw new Error("The stack has no seeded finished test");
  // The same models, personas and topics, one answer each: the compare page has models in common.
  const configuration = await runOn(e2e, async (ctx) => (await ctx.db.get("tests", first))!.configuration);
  const second = await queuedDemoTest(e2e, { ...configuration, name: SECOND_TEST, responsesPerTopic: 1 });
  await e2e.stack.backend.t.mutation(internal.runner.dispatch, {});
  await expect
    .poll(async () => await runOn(e2e, async (ctx) => (await ctx.db.get("tests", second))?.status), {
      timeout: RUN_TIMEOUT_MS,
      interval: 250,
    })
    .toBe("completed");
  return { first, second };
}

/** After a resize: the layout and whatever React renders from resize observers have settled. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(), 0))),
      ),
  );
}

/** The app's header: the avatar out of the window, or a link's words on more than one line. */
async function headerProblems(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const problems: string[] = [];
    const viewport = document.documentElement.clientWidth;
    const header = document.querySelector('header:has([aria-label="ModelJury home"])');
    if (!header) return [`${location.pathname}: no header`];
    for (const control of Array.from(header.querySelectorAll('[aria-label="User menu"], [aria-label="Open menu"]'))) {
      const box = control.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.right > viewport + 0.5 || box.left < -0.5)
        problems.push(`${control.getAttribute("aria-label")} at ${Math.round(box.left)}–${Math.round(box.right)}px`);
    }
    for (const link of Array.from(header.querySelectorAll("a, button"))) {
      const text = (link.textContent ?? "").trim();
      if (!text || link.getBoundingClientRect().width === 0) continue;
      // One line of words: the boxes of its text (not its icons) share one line (tops within 8 px).
      const tops: number[] = [];
      const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!(node.textContent ?? "").trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const box of Array.from(range.getClientRects())) if (box.width > 0) tops.push(box.top);
      }
      const lines = tops.filter((top, index) => tops.findIndex((other) => Math.abs(other - top) < 8) === index);
      if (lines.length > 1) problems.push(`"${text}" wraps onto ${lines.length} lines`);
    }
    return problems.map((problem) => `${location.pathname} at ${viewport}px, header: ${problem}`);
  });
}

/** The serious and critical axe violations of the page as it is. */
async function axeProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${new URL(page.url()).pathname} axe ${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join(" | ")}`,
    );
}

/** The compare table's key columns, each with its left and right edge in the window. */
async function compareColumnsInView(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const scores = Array.from(document.querySelectorAll('[aria-label="Scores by model"]'));
    if (scores.length === 0) return ["no scores by model"];
    const problems: string[] = [];
    for (const name of ["Difference", "95% interval", "Verdict"]) {
      const shown = scores
        .flatMap((each) => Array.from(each.querySelectorAll("th, dt")))
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return (
            (element.textContent ?? "").startsWith(name) && box.width > 0 && box.left >= 0 && box.right <= viewport
          );
        });
      if (shown.length === 0) problems.push(`compare at ${viewport}px: "${name}" is not in the window`);
    }
    return problems;
  });
}

/** The latency chart's model names as its axis draws them (the ticks carry the name as a title). */
async function latencyAxisNames(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const chart = document.querySelector('[data-testid="latency-chart"]');
    if (!chart) return [];
    return Array.from(chart.querySelectorAll("text"))
      .filter((text) => text.querySelector("title"))
      .map((text) =>
        Array.from(text.querySelectorAll("tspan"))
          .map((span) => span.textContent ?? "")
          .join(" ")
          .trim(),
      );
  });
}

describe("tablet and phone widths", () => {
  test(
    "every page fits at 360, 390, 768 and 1024 px, and axe finds nothing serious",
    { timeout: 600_000 },
    async () => {
      const { first, second } = await finishedTests();
      const demo = await demoCaller(e2e);
      const { shareId } = await demo.mutation(api.shares.enable, { testId: second });
      const modelNames = await runOn(e2e, async (ctx) => {
        const responses = await ctx.db
          .query("responses")
          .withIndex("by_test", (q) => q.eq("testId", second))
          .take(50);
        const ids = new Set(responses.map((row) => row.modelId));
        const names: string[] = [];
        for (const id of ids) {
          const model = await ctx.db
            .query("llmModels")
            .withIndex("by_model_id", (q) => q.eq("modelId", id))
            .unique();
          names.push(model?.name ?? id);
        }
        return names.sort();
      });

      const heading = (page: Page, name?: string | RegExp) =>
        page
          .getByRole("heading", { level: 1, ...(name ? { name } : {}) })
          .first()
          .waitFor(FIRST_LOAD);
      const screens: Screen[] = [
        { path: "/", ready: (page) => heading(page), signedIn: false },
        { path: "/features", ready: (page) => heading(page), signedIn: false },
        { path: "/about", ready: (page) => heading(page), signedIn: false },
        { path: "/awards", ready: (page) => heading(page), signedIn: false },
        { path: "/contact", ready: (page) => heading(page), signedIn: false },
        { path: "/login", ready: (page) => heading(page), signedIn: false },
        { path: "/signup", ready: (page) => heading(page), signedIn: false },
        {
          path: `/shared/${shareId}`,
          ready: (page) => page.getByTestId("confidence-row").first().waitFor(FIRST_LOAD),
          signedIn: false,
        },
        { path: "/dashboard", ready: (page) => heading(page), signedIn: true },
        {
          path: "/dashboard/setup",
          ready: (page) => page.getByTestId("template-card-marketing-copy").waitFor(FIRST_LOAD),
          signedIn: true,
        },
        {
          path: `/dashboard/monitor?testId=${second}`,
          ready: (page) => page.getByText("Test completed").waitFor(FIRST_LOAD),
          signedIn: true,
        },
        {
          path: `/dashboard/results/${second}`,
          ready: async (page) => {
            await page.getByTestId("verdict-headline").waitFor(FIRST_LOAD);
            await page.getByTestId("latency-chart").locator("svg").first().waitFor(FIRST_LOAD);
          },
          signedIn: true,
        },
        {
          path: `/dashboard/results/${second}/review`,
          ready: (page) => page.getByTestId("review-progress").waitFor(FIRST_LOAD),
          signedIn: true,
        },
        {
          path: "/dashboard/history",
          ready: (page) => page.getByRole("heading", { name: SECOND_TEST }).waitFor(FIRST_LOAD),
          signedIn: true,
        },
        { path: "/dashboard/billing", ready: (page) => heading(page, /Billing/), signedIn: true },
        { path: "/dashboard/settings", ready: (page) => heading(page, "Account Settings"), signedIn: true },
        { path: "/dashboard/templates", ready: (page) => heading(page, "Templates"), signedIn: true },
        { path: "/dashboard/teams", ready: (page) => heading(page, "Teams"), signedIn: true },
        {
          path: `/compare?a=${first}&b=${second}`,
          ready: (page) => page.locator('[aria-label="Scores by model"]').first().waitFor(FIRST_LOAD),
          signedIn: true,
        },
      ];

      const signedOut = await (await e2e.newContext()).newPage();
      const signedIn = await (await e2e.newContext()).newPage();
      await signIn(signedIn, e2e.stack.demo.email, e2e.stack.demo.password);

      const problems: string[] = [];
      for (const screen of screens) {
        const page = screen.signedIn ? signedIn : signedOut;
        await page.setViewportSize({ width: WIDTHS[0], height: 800 });
        await page.goto(screen.path);
        await screen.ready(page);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 });
          await settled(page);
          problems.push(...(await sidewaysScroll(page)));
          if (screen.signedIn || screen.path !== "/") problems.push(...(await headerProblems(page)));
          if (screen.path.startsWith("/compare") && width === 390) problems.push(...(await compareColumnsInView(page)));
          if (screen.path.startsWith("/dashboard/results/") && !screen.path.endsWith("/review")) {
            const names = await latencyAxisNames(page);
            // Lines are broken at spaces, or inside a word longer than a line: compare without spaces.
            const bare = (list: string[]) => JSON.stringify(list.map((name) => name.replace(/\s+/gu, "")).sort());
            if (bare(names) !== bare(modelNames))
              problems.push(
                `latency chart at ${width}px names ${JSON.stringify(names)}, not ${JSON.stringify(modelNames)}`,
              );
          }
          if (width === AXE_WIDTH) problems.push(...(await axeProblems(page)));
        }
      }
      expect(problems).toEqual([]);
    },
  );
});
