// The setup page's sticky price bar on a phone (390×844): opaque, so the page scrolling under it
// cannot show through, and at most a fifth of the screen tall: on an empty setup (with the
// hints of what is missing), with a template applied, and with an own gateway key saved (which
// adds the key's cost to the bar).
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { PASSWORD, signUp, uniqueEmail, useE2E } from "./harness";

const e2e = useE2E();

const PHONE = { width: 390, height: 844 } as const;
const MAX_SHARE = 0.2;
const FIRST_LOAD_TIMEOUT_MS = 90_000;

interface BarLook {
  height: number;
  top: number;
  background: string;
  backdrop: string;
  opacity: string;
}

async function barLook(page: Page): Promise<BarLook> {
  const bar = page.getByTestId("setup-bar");
  await bar.waitFor();
  return await bar.evaluate((element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return {
      height: box.height,
      top: box.top,
      background: style.backgroundColor,
      backdrop: style.backdropFilter,
      opacity: style.opacity,
    };
  });
}

/** The alpha of a computed CSS colour: rgba(r, g, b, a), or a modern colour with "/ a". */
function alphaOf(color: string): number {
  const slash = /\/\s*([\d.]+)(%?)\s*\)$/.exec(color);
  if (slash) return Number(slash[1]) / (slash[2] === "%" ? 100 : 1);
  const rgba = /^rgba\(\s*[\d.]+\s*,\s*[\d.]+\s*,\s*[\d.]+\s*,\s*([\d.]+)\s*\)$/.exec(color);
  if (rgba) return Number(rgba[1]);
  return color === "transparent" ? 0 : 1;
}

async function expectCompactAndOpaque(page: Page, when: string): Promise<void> {
  const look = await barLook(page);
  expect(alphaOf(look.background), `${when}: background ${look.background}`).toBe(1);
  expect(look.opacity, when).toBe("1");
  expect(look.backdrop === "none" || look.backdrop === "", `${when}: backdrop ${look.backdrop}`).toBe(true);
  expect(look.height, `${when}: ${look.height}px of ${PHONE.height}px`).toBeLessThanOrEqual(PHONE.height * MAX_SHARE);
  // It sits at the bottom of the screen, whole.
  expect(Math.round(look.top + look.height)).toBe(PHONE.height);
}

describe("setup price bar on a phone", () => {
  test("opaque and at most 20% of a 390×844 screen: empty, with a template, and with an own key saved", async (context) => {
    const page = await e2e.newPage();
    await page.setViewportSize(PHONE);
    await signUp(page, uniqueEmail("setupbar"), PASSWORD);

    await page.goto("/dashboard/setup");
    // The first visit compiles the setup route in Vite (the warm-up only covers the dashboard).
    await page.getByRole("heading", { level: 1, name: "Test Setup" }).waitFor({ timeout: FIRST_LOAD_TIMEOUT_MS });
    await page.getByTestId("run-test-hints").waitFor();
    await expectCompactAndOpaque(page, "empty setup");

    await page.getByTestId("template-card-marketing-copy").click();
    await page.getByTestId("template-detail").getByRole("button", { name: "Apply This Template" }).click();
    await page.getByRole("heading", { level: 2, name: "Personas" }).waitFor();
    await page.getByTestId("setup-bar").getByRole("button", { name: "Save Template" }).waitFor();
    await expectCompactAndOpaque(page, "template applied");
    // Every action is still in the bar, by name.
    const bar = page.getByTestId("setup-bar");
    for (const name of ["Generation Prompt", "Evaluation Prompt", "Save Template", "Run Test"])
      expect(await bar.getByRole("button", { name }).isVisible(), name).toBe(true);

    // An own gateway key adds its cost to the bar: still compact.
    await page.goto("/dashboard/settings");
    const usage = page.getByRole("region", { name: "Usage" });
    await usage.getByTestId("own-key-note").waitFor();
    if (await usage.getByText("Own API keys can't be stored on this deployment.", { exact: false }).count())
      context.skip();
    await usage.getByLabel("OpenRouter API key").fill(e2e.stack.gateway.settings.apiKey);
    await usage.getByRole("button", { name: "Save Key" }).click();
    await usage.getByTestId("masked-key").waitFor();
    await page.goto("/dashboard/setup");
    await page.getByTestId("setup-own-key-cost").waitFor();
    await expectCompactAndOpaque(page, "own key saved");
  });
});
