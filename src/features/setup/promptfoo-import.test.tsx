// The setup page's promptfoo upload: the summary of what is and is not imported shows before
// anything changes; only "Use This Configuration" hands the configuration over.
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";

import { PROMPTFOO_NOT_FOUND, PromptfooImportButton } from "./promptfoo-import";

const CONFIG = `
description: Greetings
prompts:
  - file://greet.txt
providers:
  - openrouter:openai/gpt-4o-mini
  - bedrock:unknown-model
defaultTest:
  options:
    provider: openai:gpt-4.1
  assert:
    - type: icontains
      value: hello
    - type: similar
      value: a greeting
tests:
  - vars:
      name: [Ada, Grace]
`;

function files() {
  return [
    new File([CONFIG], "promptfooconfig.yaml", { type: "application/yaml" }),
    new File(["Say hello to {{name}}."], "greet.txt", { type: "text/plain" }),
  ];
}

describe("promptfoo upload", () => {
  test("shows what was imported and what was not, and imports only when confirmed", async () => {
    const onImport = vi.fn();
    const user = userEvent.setup();
    render(
      <PromptfooImportButton catalogIds={["openai/gpt-4o-mini", "openai/gpt-4.1"]} replacesData onImport={onImport} />,
    );
    await user.upload(screen.getByTestId("promptfoo-file-input"), files());
    const summary = await screen.findByTestId("promptfoo-import-summary");
    expect(summary).toHaveTextContent("1 persona, 2 topics, 1 generator and 1 evaluator model, 1 check.");
    const imported = within(summary).getByRole("region", { name: "Imported" });
    expect(imported).toHaveTextContent("Provider openrouter:openai/gpt-4o-mini → openai/gpt-4o-mini");
    expect(imported).toHaveTextContent("1 prompt × 2 test cases → 2 topics");
    const notImported = within(summary).getByRole("region", { name: "Not imported" });
    expect(notImported).toHaveTextContent(
      "provider bedrock:unknown-model: no model with this id in the ModelJury catalog",
    );
    expect(notImported).toHaveTextContent("defaultTest assert similar: ModelJury has no check of this kind");
    expect(summary).toHaveTextContent("Your current personas, topics, models and checks will be replaced.");
    expect(onImport).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: "Use This Configuration" }));
    expect(onImport).toHaveBeenCalledTimes(1);
    const configuration = onImport.mock.calls[0][0];
    expect(configuration).toMatchObject({
      name: "Greetings",
      generatorModels: [{ id: "openai/gpt-4o-mini" }],
      evaluatorModels: [{ id: "openai/gpt-4.1" }],
      checks: [{ kind: "contains", value: "hello", caseSensitive: false }],
    });
    expect(configuration.topics.map((topic: { prompt: string }) => topic.prompt)).toEqual([
      "Say hello to Ada.",
      "Say hello to Grace.",
    ]);
  });

  test("cancel changes nothing; a file that is no promptfoo config says so", async () => {
    const onImport = vi.fn();
    const user = userEvent.setup();
    render(<PromptfooImportButton catalogIds={[]} replacesData={false} onImport={onImport} />);
    await user.upload(screen.getByTestId("promptfoo-file-input"), files());
    await screen.findByTestId("promptfoo-import-summary");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onImport).not.toHaveBeenCalled();
    await user.upload(
      screen.getByTestId("promptfoo-file-input"),
      new File(["name: not promptfoo"], "other.yaml", { type: "application/yaml" }),
    );
    expect(await screen.findByTestId("promptfoo-import-error")).toHaveTextContent(PROMPTFOO_NOT_FOUND);
  });
});
