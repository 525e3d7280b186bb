// the demo user picks a built-in template, applies it, adds a generator and
// sees the price follow, saves the setup as a template, finds it under My Templates, and after a
// reload finds the setup as it was left (kept in local storage).
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { signIn, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();

const TEMPLATE_ID = "marketing-copy";
const TEMPLATE_NAME = "Marketing Copy Optimization";
/** Not among the template's suggestions, and dear enough to move any price. */
const ADDED_GENERATOR = "Anthropic: Claude Opus 4";

function section(page: Page, id: "configuration" | "generators" | "evaluators") {
  return page.getByTestId(`setup-section-${id}`);
}

/** The names in the 'Selected generator models' chips, in their order. */
async function selectedGenerators(page: Page): Promise<string[]> {
  const chips = section(page, "generators")
    .getByRole("list", { name: "Selected generator models" })
    .getByRole("listitem");
  return (await chips.allTextContents()).map((text) => text.trim());
}

async function totalPrice(page: Page): Promise<string> {
  return ((await page.getByTestId("setup-total-price").textContent()) ?? "").trim();
}

describe("test setup", () => {
  test("apply a template, add a generator, save it as a template, find it in the library, reload", async () => {
    const page = await e2e.newPage();
    await signIn(page, e2e.stack.demo.email, e2e.stack.demo.password);
    await page.goto("/dashboard/setup");
    await page.getByRole("heading", { level: 1, name: "Test Setup" }).waitFor();

    // Pick the template: its detail panel opens; apply it (a fresh browser has no draft to replace).
    await page.getByTestId(`template-card-${TEMPLATE_ID}`).click();
    const detail = page.getByTestId("template-detail");
    await detail.getByRole("heading", { name: TEMPLATE_NAME }).waitFor();
    // Suggested models show by name once the catalog is in (applying earlier selects no models).
    await detail.getByText("OpenAI: GPT-4o", { exact: true }).waitFor();
    await detail.getByRole("button", { name: "Apply This Template" }).click();
    await page.getByTestId("applied-template").getByText(TEMPLATE_NAME).waitFor();
    for (const heading of [
      "Test Configuration",
      "Personas",
      "Topics",
      "Generator Models",
      "Evaluator Models",
      "Evaluation Configuration",
    ]) {
      await page.getByRole("heading", { level: 2, name: heading }).waitFor();
    }

    // The template's generators are ticked once the catalog is in; the price is theirs.
    const generators = section(page, "generators");
    await expect.poll(() => selectedGenerators(page), { timeout: UI_TIMEOUT_MS }).toHaveLength(4);
    const templateGenerators = await selectedGenerators(page);
    for (const name of templateGenerators)
      expect(await generators.getByRole("checkbox", { name, exact: true }).isChecked()).toBe(true);
    await expect.poll(() => totalPrice(page), { timeout: UI_TIMEOUT_MS }).toMatch(/^\$\d+\.\d\d$/);
    const templatePrice = await totalPrice(page);
    expect(templatePrice).not.toBe("$0.00");

    // Add one generator through the search; the price follows.
    await generators.getByRole("textbox", { name: "Search generator models" }).fill("Opus");
    const added = generators.getByRole("checkbox", { name: ADDED_GENERATOR, exact: true });
    await added.click();
    await expect.poll(() => added.isChecked()).toBe(true);
    await expect.poll(() => selectedGenerators(page)).toEqual([...templateGenerators, ADDED_GENERATOR]);
    await expect.poll(() => totalPrice(page), { timeout: UI_TIMEOUT_MS }).not.toBe(templatePrice);
    const changedPrice = await totalPrice(page);
    expect(dollars(changedPrice)).toBeGreaterThan(dollars(templatePrice));
    await generators.getByRole("textbox", { name: "Search generator models" }).fill("");
    const testName = await section(page, "configuration").getByLabel("Test Name").inputValue();
    expect(testName).not.toBe("");

    // Save the setup as a template under a name no other run uses.
    const templateName = `E2E setup ${Date.now().toString(36)}`;
    await page.getByTestId("setup-bar").getByRole("button", { name: "Save Template" }).click();
    const saveDialog = page.getByRole("dialog", { name: "Save as Template" });
    await saveDialog.getByLabel("Template Name").fill(templateName);
    await saveDialog
      .getByLabel("Description")
      .fill("Marketing copy with Claude Opus 4 added, saved by the browser journey.");
    await saveDialog.getByLabel("Tags").fill("E2E");
    await saveDialog.getByRole("button", { name: "Add tag" }).click();
    await saveDialog.getByRole("list", { name: "Template tags" }).getByText("e2e", { exact: true }).waitFor();
    await saveDialog.getByRole("button", { name: "Save Template" }).click();
    await saveDialog.waitFor({ state: "detached" });

    // The Template Library lists it under My Templates, found by its name.
    await page.getByTestId("applied-template").getByRole("button", { name: "Template Library" }).click();
    const library = page.getByRole("dialog", { name: "Template Library" });
    const ownTab = library.getByRole("tab", { name: /^My Templates \(\d+\)$/ });
    await expect.poll(() => ownTab.getAttribute("aria-selected")).toBe("true");
    // The seeded demo template and this one.
    await expect.poll(() => ownTab.textContent(), { timeout: UI_TIMEOUT_MS }).toBe("My Templates (2)");
    await library.getByRole("textbox", { name: "Search templates" }).fill(templateName);
    const card = library.getByTestId("library-template-card");
    await expect.poll(() => card.count()).toBe(1);
    await card.getByText(templateName, { exact: true }).waitFor();
    await card.getByText("3 personas · 3 topics").waitFor();
    await card.getByRole("button", { name: `Apply ${templateName}` }).waitFor();
    await card.getByRole("button", { name: `Preview ${templateName}` }).click();
    await card.getByTestId("template-preview").getByText("Direct-Response Copywriter").waitFor();
    await page.keyboard.press("Escape");
    await library.waitFor({ state: "detached" });

    // After a reload the setup is as it was left: same name, generators and price.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Test Setup" }).waitFor();
    await expect
      .poll(() => section(page, "configuration").getByLabel("Test Name").inputValue(), { timeout: UI_TIMEOUT_MS })
      .toBe(testName);
    await expect
      .poll(() => selectedGenerators(page), { timeout: UI_TIMEOUT_MS })
      .toEqual([...templateGenerators, ADDED_GENERATOR]);
    for (const name of [...templateGenerators, ADDED_GENERATOR]) {
      expect(await generators.getByRole("checkbox", { name, exact: true }).isChecked()).toBe(true);
    }
    await expect.poll(() => totalPrice(page), { timeout: UI_TIMEOUT_MS }).toBe(changedPrice);
    await page.context().close();
  });
});

function dollars(price: string): number {
  return Number(price.replace(/[$,]/g, ""));
}
