// Forms and what they show, as a person meets them in a real browser.
import { describe, expect, test } from "vitest";
import { PASSWORD, signUp, uniqueEmail, useE2E } from "./harness";

const e2e = useE2E();

describe("forms", () => {
  test("a persona's preview shows three whole lines of its system prompt and nothing of a fourth", async () => {
    const page = await e2e.newPage();
    await signUp(page, uniqueEmail("preview"), PASSWORD);
    await page.goto("/dashboard/setup");
    await page.getByRole("heading", { level: 1, name: "Test Setup" }).waitFor();
    await page.getByRole("button", { name: "Custom", exact: true }).click();
    await page.getByRole("button", { name: "Add Persona", exact: true }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Six liner");
    await dialog.getByLabel("Description").fill("Has a long system prompt");
    const lines = ["Line one", "Line two", "Line three", "Line four", "Line five", "Line six"];
    await dialog.getByLabel("System Prompt").fill(lines.join("\n"));
    await dialog.getByRole("button", { name: "Add Persona", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });

    const preview = page.getByText("Line one", { exact: false }).first();
    await preview.waitFor();
    // Which lines of the text have any pixel inside the area the preview shows.
    const visible = await preview.evaluate((element, all) => {
      const box = element.getBoundingClientRect();
      const text = element.textContent ?? "";
      const shown: string[] = [];
      for (const walker of [document.createTreeWalker(element, NodeFilter.SHOW_TEXT)]) {
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const line of all) {
            const start = (node.textContent ?? "").indexOf(line);
            if (start < 0) continue;
            const range = document.createRange();
            range.setStart(node, start);
            range.setEnd(node, start + line.length);
            const rect = range.getBoundingClientRect();
            if (rect.bottom > box.top && rect.top < box.bottom - 0.5) shown.push(line);
          }
        }
      }
      return { shown, text };
    }, lines);
    expect(visible.text).toContain("Line six");
    expect(visible.shown).toEqual(["Line one", "Line two", "Line three"]);
  });
});
