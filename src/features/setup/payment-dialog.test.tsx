import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { TestConfiguration } from "../../../convex/validators";
import { PaymentDialog } from "./payment-dialog";

const CONFIGURATION: TestConfiguration = {
  name: "Coffee taglines",
  taskType: "marketing",
  userPrompt: "Write a tagline.",
  personas: [{ id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." }],
  topics: [{ id: "t1", title: "Coffee", description: "A coffee shop", prompt: "Sell coffee." }],
  generatorModels: [{ id: "openai/gpt-4o-mini", name: "GPT-4o Mini" }],
  evaluatorModels: [{ id: "google/gemini-2.0-flash-001", name: "Gemini 2.0 Flash" }],
  responsesPerTopic: 2,
  rankingPrompt: "",
  evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
  scoringParameters: { scale: "ranking", includeExplanations: true },
};

function summaryOf(configuration: TestConfiguration) {
  render(
    <PaymentDialog
      state={{ open: true, processing: false, error: null }}
      configuration={configuration}
      priceCents={440}
      queries={1}
      onPay={() => {}}
      onClose={() => {}}
    />,
  );
  return within(screen.getByTestId("payment-summary"));
}

describe("payment dialog", () => {
  it("says the test's checks cost nothing, beside the total", () => {
    const summary = summaryOf({
      ...CONFIGURATION,
      checks: [
        { id: "a", kind: "json" },
        { id: "b", kind: "contains", value: "coffee" },
      ],
    });
    expect(summary.getByText("Checks").nextSibling).toHaveTextContent("2 × $0.00");
    expect(screen.getByTestId("payment-total")).toHaveTextContent("$4.40");
  });

  it("has no checks line for a test without checks", () => {
    expect(summaryOf(CONFIGURATION).queryByText("Checks")).not.toBeInTheDocument();
  });
});
