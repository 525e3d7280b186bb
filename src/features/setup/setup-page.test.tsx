import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { callMock, makeViewer, oneShotQuery, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import { builtinTemplateById } from "../../../convex/lib/builtins";
import { formatCents, formatTestCost } from "../../../convex/lib/format";
import { quote } from "../../../convex/lib/pricing";
import { redirectToCheckout } from "@/lib/checkout-redirect";
import { CATALOG, catalogResult, completeState } from "@/test/fixtures/setup";
import {
  SETUP_STORAGE_KEY,
  buildTestConfiguration,
  loadStoredSetup,
  saveStoredSetup,
  templateDataOfState,
  type SetupState,
} from "./setup-state";
import type { SavedTemplate } from "./template-sources";

vi.mock("@/lib/checkout-redirect", () => ({ redirectToCheckout: vi.fn() }));

const viewer = makeViewer();
const byId = new Map(CATALOG.map((model) => [model.id, model]));
const prices = Object.fromEntries(CATALOG.map((model) => [model.id, model.pricing]));

function storeDraft(state: SetupState) {
  saveStoredSetup(window.localStorage, { ownerId: viewer._id, state });
}

function storedDraft(): SetupState {
  return loadStoredSetup(window.localStorage).state;
}

/** Typing character by character is slow in jsdom; pasting fills a field at once. */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

function runButton() {
  return screen.getByRole("button", { name: /Run Test|Starting Test/ });
}

beforeEach(() => {
  vi.mocked(redirectToCheckout).mockReset();
  setSignedIn(viewer);
  setQueryResult("models:list", catalogResult());
  setQueryResult("tests:paymentMode", { mode: "free" });
  callMock("models:requestRefresh").mockResolvedValue(false);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Run Test", () => {
  it("is disabled with hints naming what is missing", async () => {
    storeDraft({ ...completeState(), personas: [], generatorModelIds: [] });
    renderApp("/dashboard/setup");
    // The first render of the file loads the lazy setup route: allow for a busy machine.
    expect(await screen.findByRole("heading", { name: "Test Setup" }, { timeout: 5000 })).toBeInTheDocument();
    expect(runButton()).toBeDisabled();
    const hints = screen.getByTestId("run-test-hints");
    expect(hints).toHaveTextContent("Select at least one generator model.");
    expect(hints).toHaveTextContent("Add at least one persona.");
    expect(hints).not.toHaveTextContent("evaluator");
    expect(hints).not.toHaveTextContent("topic");
  });

  it("lists all four missing parts on an empty setup", async () => {
    renderApp("/dashboard/setup");
    const hints = await screen.findByTestId("run-test-hints");
    for (const text of [
      "Select at least one generator model.",
      "Select at least one evaluator model.",
      "Add at least one persona.",
      "Add at least one topic.",
    ]) {
      expect(hints).toHaveTextContent(text);
    }
  });

  it("in free mode says so, creates the test and opens the monitor", async () => {
    storeDraft(completeState());
    callMock("tests:create").mockResolvedValue({ testId: "test123", priceCents: 200, paymentRequired: false });
    const { router } = renderApp("/dashboard/setup");
    expect(await screen.findByText("Runs are free on this deployment")).toBeInTheDocument();
    expect(screen.queryByTestId("run-test-hints")).not.toBeInTheDocument();
    await userEvent.setup().click(runButton());
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/monitor"));
    expect(router.state.location.search).toEqual({ testId: "test123" });
    expect(callMock("tests:create")).toHaveBeenCalledWith({
      configuration: buildTestConfiguration(completeState(), byId),
    });
  });

  it("shows a server validation error in a toast", async () => {
    storeDraft(completeState());
    callMock("tests:create").mockRejectedValue(
      new ConvexError({
        code: "INVALID_INPUT",
        message: "The model openai/gpt-4o is not available. Choose another model.",
      }),
    );
    renderApp("/dashboard/setup");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Run Test" }));
    expect(
      await screen.findByText("The model openai/gpt-4o is not available. Choose another model."),
    ).toBeInTheDocument();
    expect(runButton()).toHaveTextContent("Run Test");
  });

  it("with payments asks first, then creates the test and goes to the checkout", async () => {
    storeDraft(completeState());
    setQueryResult("tests:paymentMode", { mode: "stripe" });
    callMock("tests:create").mockResolvedValue({ testId: "test9", priceCents: 200, paymentRequired: true });
    callMock("payments:createCheckout").mockResolvedValue({ url: "https://checkout.example/pay/1", sessionId: "cs_1" });
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Run Test" }));
    const dialog = await screen.findByRole("dialog", { name: "Complete Payment" });
    expect(within(dialog).getByText("Support tone check")).toBeInTheDocument();
    expect(
      within(dialog).getByText("You will be redirected to secure checkout.", { exact: false }),
    ).toBeInTheDocument();
    const price = formatCents(quote(buildTestConfiguration(completeState(), byId), prices).priceCents);
    expect(within(dialog).getByTestId("payment-total")).toHaveTextContent(price);
    expect(callMock("tests:create")).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole("button", { name: `Pay ${price}` }));
    await waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith("https://checkout.example/pay/1"));
    expect(callMock("payments:createCheckout")).toHaveBeenCalledWith({ testId: "test9" });
  });

  it("shows a failed checkout in the payment modal and pays for the same test on retry", async () => {
    storeDraft(completeState());
    setQueryResult("tests:paymentMode", { mode: "stripe" });
    callMock("tests:create").mockResolvedValue({ testId: "test9", priceCents: 200, paymentRequired: true });
    callMock("payments:createCheckout").mockRejectedValueOnce(
      new ConvexError({ code: "UNAVAILABLE", message: "Failed to create payment session. Please try again later." }),
    );
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Run Test" }));
    const dialog = await screen.findByRole("dialog", { name: "Complete Payment" });
    await user.click(within(dialog).getByRole("button", { name: /^Pay / }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Failed to create payment session. Please try again later.",
    );
    callMock("payments:createCheckout").mockResolvedValue({ url: "https://checkout.example/pay/2", sessionId: "cs_2" });
    await user.click(within(dialog).getByRole("button", { name: /^Pay / }));
    await waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith("https://checkout.example/pay/2"));
    expect(callMock("tests:create")).toHaveBeenCalledTimes(1);
  });
});

/** The Enterprise Flagship bundle's models at their list prices per token. */
const FLAGSHIP_CATALOG = [
  ...CATALOG,
  {
    ...CATALOG[4]!,
    id: "anthropic/claude-opus-4",
    name: "Claude Opus 4",
    pricing: { prompt: 15e-6, completion: 75e-6 },
    tier: "ENTERPRISE" as const,
  },
  {
    ...CATALOG[4]!,
    id: "anthropic/claude-sonnet-4",
    name: "Claude Sonnet 4",
    pricing: { prompt: 3e-6, completion: 15e-6 },
  },
  {
    ...CATALOG[4]!,
    id: "google/gemini-2.5-pro",
    name: "Gemini 2.5 Pro",
    pricing: { prompt: 1.25e-6, completion: 10e-6 },
  },
];

describe("Responses per Topic", () => {
  it("keeps 11 as typed, says it must be 1 to 10 and holds Run Test until a good number is typed", async () => {
    storeDraft(completeState({ responsesPerTopic: 2 }));
    const user = userEvent.setup();
    renderApp("/dashboard/setup");
    const field = await screen.findByLabelText("Responses per Topic", {}, { timeout: 5000 });
    const message = "Responses per topic must be a whole number from 1 to 10.";
    expect(runButton()).toBeEnabled();

    await user.clear(field);
    await user.type(field, "11");
    await user.tab();
    expect(field).toHaveValue(11);
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(within(field.closest("[data-slot=form-item]") as HTMLElement).getByText(message)).toBeInTheDocument();
    expect(runButton()).toBeDisabled();
    expect(screen.getByTestId("run-test-hints")).toHaveTextContent(message);

    await user.clear(field);
    await user.type(field, "7");
    expect(field).toHaveValue(7);
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    expect(runButton()).toBeEnabled();
    await waitFor(() => expect(storedDraft().responsesPerTopic).toBe(7));
  }, 40_000);
});

describe("price", () => {
  it("with the user's own key charges $0.00 and shows the gateway cost the key will pay", async () => {
    setQueryResult("tests:paymentMode", { mode: "ownKey" });
    const state = completeState({ responsesPerTopic: 3 });
    storeDraft(state);
    renderApp("/dashboard/setup");
    const quoted = quote(buildTestConfiguration(state, byId), prices);
    expect(quoted.priceCents).toBeGreaterThanOrEqual(200);
    await screen.findByTestId("setup-own-key-cost");
    expect(screen.getByTestId("setup-total-price")).toHaveTextContent("$0.00");
    expect(screen.getByTestId("setup-own-key-cost")).toHaveTextContent(
      `≈ ${formatTestCost(quoted.estimate.totalCost)}`,
    );
  });

  it("on a free deployment charges $0.00 and says so", async () => {
    storeDraft(completeState());
    renderApp("/dashboard/setup");
    expect(await screen.findByTestId("setup-free-note")).toHaveTextContent("Free on this deployment");
    expect(screen.getByTestId("setup-total-price")).toHaveTextContent("$0.00");
  });

  it("prices bundles from the catalog: never under the $2.00 minimum, and what the setup would be charged", async () => {
    setQueryResult("tests:paymentMode", { mode: "stripe" });
    setQueryResult("models:list", catalogResult(FLAGSHIP_CATALOG));
    const state = completeState({ responsesPerTopic: 2 });
    storeDraft(state);
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Browse Bundles" }));
    const flagship = await screen.findByTestId("bundle-enterprise-flagship");
    const range = within(flagship).getByTestId("bundle-cost-range").textContent ?? "";
    expect(range).not.toBe("$25.00+");
    expect(range).toMatch(/^\$2\.00-\d+\.\d\d$/);
    const budget = within(screen.getByTestId("bundle-budget-creative")).getByTestId("bundle-cost-range");
    expect(budget).not.toHaveTextContent("$0.50");
    expect(budget.textContent).toMatch(/^\$2\.00/);

    // 'With your setup' is exactly what the bar charges once the bundle is applied.
    const withSetup = within(flagship).getByTestId("bundle-setup-price").textContent ?? "";
    await user.click(within(flagship).getByRole("button", { name: "Apply Enterprise Flagship" }));
    await waitFor(() => expect(withSetup).toContain(screen.getByTestId("setup-total-price").textContent ?? "?"));
  });

  it("shows quote() of the configuration, live", async () => {
    setQueryResult("tests:paymentMode", { mode: "stripe" });
    const state = completeState({ responsesPerTopic: 3 });
    storeDraft(state);
    renderApp("/dashboard/setup");
    const total = await screen.findByTestId("setup-total-price");
    expect(total).toHaveTextContent(formatCents(quote(buildTestConfiguration(state, byId), prices).priceCents));

    // Adding a premium generator raises it to exactly the new quote.
    const generators = screen.getByTestId("setup-section-generators");
    await userEvent.setup().click(within(generators).getByRole("checkbox", { name: "GPT-4o" }));
    const changed = { ...state, generatorModelIds: [...state.generatorModelIds, "openai/gpt-4o"] };
    const expected = formatCents(quote(buildTestConfiguration(changed, byId), prices).priceCents);
    await waitFor(() => expect(total).toHaveTextContent(expected));
    // 6 answers (3 generators × 2 personas × 1 topic) at once at 2 s each from the catalog, then
    // the judgements (0.5 s): 2.5 s, shown from ×0.8 to ×1.6.
    setQueryResult("models:timing", {
      concurrency: 64,
      latencies: [
        { key: "generate:openai/gpt-4o-mini", latencyMs: 2_000 },
        { key: "generate:google/gemini-2.0-flash-001", latencyMs: 2_000 },
        { key: "generate:openai/gpt-4o", latencyMs: 2_000 },
        { key: "evaluate:openai/gpt-4o", latencyMs: 500 },
      ],
    });
    await waitFor(() => expect(screen.getByTestId("setup-time-range")).toHaveTextContent("2-4 seconds"));
  });

  it("'Judge in both orders' says what it costs and why, and raises the price to the quote with every ranking call made twice", async () => {
    setQueryResult("tests:paymentMode", { mode: "stripe" });
    // Large enough to be priced above the $2.00 minimum either way.
    const state = completeState({
      responsesPerTopic: 10,
      topics: Array.from({ length: 10 }, (_, index) => ({
        id: `temp-3-${index}`,
        title: `Topic ${index}`,
        description: "A topic",
        prompt: `Question ${index}`,
      })),
      scoringParameters: { scale: "ranking", includeExplanations: true },
    });
    storeDraft(state);
    renderApp("/dashboard/setup");
    const total = await screen.findByTestId("setup-total-price", {}, { timeout: 15_000 });
    const once = quote(buildTestConfiguration(state, byId), prices);
    expect(total).toHaveTextContent(formatCents(once.priceCents));
    expect(screen.getByText(/doubles the judging part of the price/)).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole("switch", { name: "Judge in both orders" }));
    const both = { ...state, scoringParameters: { ...state.scoringParameters, bothOrders: true } };
    const quoted = quote(buildTestConfiguration(both, byId), prices);
    expect(quoted.estimate.evaluationCost).toBeCloseTo(2 * once.estimate.evaluationCost, 12);
    await waitFor(() => expect(total).toHaveTextContent(formatCents(quoted.priceCents)));
    expect(quoted.priceCents).toBeGreaterThan(once.priceCents);
    expect(storedDraft().scoringParameters).toMatchObject({ bothOrders: true });

    await userEvent.setup().click(screen.getByRole("switch", { name: "Judges skip answers from their own family" }));
    await waitFor(() =>
      expect(storedDraft().scoringParameters).toMatchObject({ bothOrders: true, skipOwnFamily: true }),
    );
  });
});

describe("templates", () => {
  it("applies a template straight away on an empty setup, then hides section 1", async () => {
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: /^Marketing Copy Optimization/ }));
    expect(screen.getByTestId("template-detail")).toHaveTextContent("Cost varies with the models");
    await user.click(screen.getByRole("button", { name: "Apply This Template" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Choose Template" })).not.toBeInTheDocument();
    expect(screen.getByTestId("applied-template")).toHaveTextContent("Marketing Copy Optimization");
    const marketing = builtinTemplateById("marketing-copy")!;
    expect(storedDraft().personas.map((persona) => persona.name)).toEqual(
      marketing.personas.map((persona) => persona.name),
    );
    expect(screen.getByLabelText("Test Name")).toHaveValue(marketing.name);
    expect(screen.getByLabelText("Category")).toHaveValue("Marketing");
  });

  it("applied before the model list arrives, it selects the suggested models once the list is here", async () => {
    setQueryResult("models:list", undefined);
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: /^Marketing Copy Optimization/ }));
    await user.click(screen.getByRole("button", { name: "Apply This Template" }));
    act(() => setQueryResult("models:list", catalogResult()));
    const marketing = builtinTemplateById("marketing-copy")!;
    const expected = marketing.suggestedModels.generators.filter((id) => byId.has(id));
    expect(expected.length).toBeGreaterThan(0);
    await waitFor(() => expect(storedDraft().generatorModelIds).toEqual(expected));
  });

  it("picking the same card again deselects it", async () => {
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    const card = await screen.findByRole("button", { name: /^Technical Documentation/ });
    await user.click(card);
    expect(card).toHaveAttribute("aria-pressed", "true");
    await user.click(card);
    expect(card).toHaveAttribute("aria-pressed", "false");
    expect(screen.queryByRole("button", { name: "Apply This Template" })).not.toBeInTheDocument();
  });

  it("asks 'Replace Existing Data' before replacing personas, topics and models", async () => {
    storeDraft(completeState({ appliedTemplate: null }));
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: /^Customer Service Quality/ }));
    await user.click(screen.getByRole("button", { name: "Apply This Template" }));
    const dialog = await screen.findByRole("alertdialog", { name: /Replace Existing Data/ });

    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(storedDraft().personas.map((persona) => persona.name)).toEqual(["Calm Agent", "Sarcastic Teenager"]);

    await user.click(screen.getByRole("button", { name: "Apply This Template" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Replace" }));
    const template = builtinTemplateById("customer-service")!;
    await waitFor(() =>
      expect(storedDraft().personas.map((persona) => persona.name)).toEqual(
        template.personas.map((persona) => persona.name),
      ),
    );
    expect(storedDraft().generatorModelIds.every((id) => byId.has(id))).toBe(true);
    expect(storedDraft().appliedTemplate?.id).toBe("customer-service");
  });

  it("starts from ?template= with a built-in id", async () => {
    const { router } = renderApp("/dashboard/setup?template=content-seo");
    await waitFor(() => expect(storedDraft().appliedTemplate?.id).toBe("content-seo"));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });
});

describe("local storage", () => {
  it("keeps an added persona across a reload", async () => {
    const first = renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Custom" }));
    await user.click(screen.getByRole("button", { name: "Add Persona" }));
    const editor = await screen.findByRole("dialog", { name: "Add Persona" });
    expect(within(editor).getByLabelText("Name")).toHaveAttribute("placeholder", "e.g., Sarcastic Teenager");
    expect(editor).toHaveTextContent("The system prompt instructs the model how to behave");

    // Nothing is submitted while a field is empty.
    await fill(user, within(editor).getByLabelText("Name"), "Pirate");
    await user.click(within(editor).getByRole("button", { name: "Add Persona" }));
    expect(within(editor).getByText("Persona description is required.")).toBeInTheDocument();
    expect(storedDraft().personas).toEqual([]);

    await fill(user, within(editor).getByLabelText("Description"), "Talks like a pirate");
    await fill(user, within(editor).getByLabelText("System Prompt"), "You are a pirate.");
    await user.click(within(editor).getByRole("button", { name: "Add Persona" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await fill(user, screen.getByLabelText("User Prompt"), "Keep it short.");
    first.unmount();

    expect(window.localStorage.getItem(SETUP_STORAGE_KEY)).not.toBeNull();
    renderApp("/dashboard/setup");
    expect(await screen.findByText("Talks like a pirate")).toBeInTheDocument();
    expect(screen.getByLabelText("User Prompt")).toHaveValue("Keep it short.");
    const persona = storedDraft().personas[0];
    expect(persona).toMatchObject({
      name: "Pirate",
      description: "Talks like a pirate",
      systemPrompt: "You are a pirate.",
    });
    expect(persona.id).toMatch(/^temp-\d+-[a-z0-9]+$/);
  });

  it("does not show another account's draft", async () => {
    saveStoredSetup(window.localStorage, { ownerId: "someone-else", state: completeState() });
    renderApp("/dashboard/setup");
    await screen.findByRole("heading", { name: "Test Setup" });
    await waitFor(() => expect(storedDraft().personas).toEqual([]));
    expect(screen.queryByText("Calm Agent")).not.toBeInTheDocument();
  });
});

describe("Save as Template", () => {
  async function openSaveDialog() {
    storeDraft(completeState());
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Save Template" }));
    return { user, dialog: await screen.findByRole("dialog", { name: "Save as Template" }) };
  }

  it("is offered only with a persona, a topic and a user prompt", async () => {
    storeDraft(completeState({ userPrompt: "  " }));
    renderApp("/dashboard/setup");
    await screen.findByRole("heading", { name: "Test Setup" });
    expect(screen.queryByRole("button", { name: "Save Template" })).not.toBeInTheDocument();
  });

  it("adds tags by Enter or the button: lowercased, trimmed, unique, at most 20 characters and 5 tags", async () => {
    const { user, dialog } = await openSaveDialog();
    const input = within(dialog).getByLabelText("Tags");
    await user.type(input, "  Support {Enter}");
    await user.type(input, "TONE");
    await user.click(within(dialog).getByRole("button", { name: "Add tag" }));
    const list = () => within(dialog).getByRole("list", { name: "Template tags" });
    expect(
      within(list())
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["support", "tone"]);

    await user.type(input, "support{Enter}");
    expect(within(dialog).getByRole("alert")).toHaveTextContent("That tag has already been added.");
    await user.clear(input);
    await fill(user, input, "a-very-long-tag-over-twenty");
    await user.keyboard("{Enter}");
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Tags must be 20 characters or fewer.");
    await user.clear(input);
    for (const tag of ["three", "four", "five"]) await user.type(input, `${tag}{Enter}`);
    await user.type(input, "six{Enter}");
    expect(within(dialog).getByRole("alert")).toHaveTextContent("You can add up to 5 tags.");
    expect(within(list()).getAllByRole("listitem")).toHaveLength(5);
    // Enter never submitted the form.
    expect(callMock("templates:create")).not.toHaveBeenCalled();
  });

  it("checks name and description, counts the description, and saves private in Custom by default", async () => {
    const { user, dialog } = await openSaveDialog();
    await user.click(within(dialog).getByRole("button", { name: "Save Template" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "Please provide both a name and description for your template.",
    );
    await fill(user, within(dialog).getByLabelText("Template Name"), " My support check ");
    await fill(user, within(dialog).getByLabelText("Description"), "Tone of replies");
    expect(within(dialog).getByTestId("description-counter")).toHaveTextContent("15/500");
    await user.click(within(dialog).getByRole("button", { name: "Save Template" }));
    await waitFor(() => expect(callMock("templates:create")).toHaveBeenCalledTimes(1));
    expect(callMock("templates:create").mock.calls[0][0]).toMatchObject({
      name: "My support check",
      description: "Tone of replies",
      category: "general",
      isPublic: false,
      tags: [],
      templateData: { userPrompt: "Answer in under 100 words.", suggestedModels: { evaluators: ["openai/gpt-4o"] } },
    });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Save as Template" })).not.toBeInTheDocument());
  });

  it("says 'Failed to save template. Please try again.' when saving fails", async () => {
    const { user, dialog } = await openSaveDialog();
    callMock("templates:create").mockRejectedValue(new Error("network down"));
    await fill(user, within(dialog).getByLabelText("Template Name"), "Name");
    await fill(user, within(dialog).getByLabelText("Description"), "Description");
    await user.click(within(dialog).getByRole("button", { name: "Save Template" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Failed to save template. Please try again.");
  });
});

describe("model catalog", () => {
  it("asks for a refresh when the catalog is stale", async () => {
    setQueryResult("models:list", catalogResult(CATALOG, Date.now() - 25 * 60 * 60 * 1000));
    renderApp("/dashboard/setup");
    await screen.findByRole("heading", { name: "Test Setup" });
    await waitFor(() => expect(callMock("models:requestRefresh")).toHaveBeenCalledTimes(1));
  });

  it("does not ask when it is fresh, and shows the model info", async () => {
    storeDraft(completeState());
    renderApp("/dashboard/setup");
    const generators = await screen.findByTestId("setup-section-generators");
    await userEvent.setup().click(within(generators).getByRole("button", { name: "Model info for Claude 3.5 Haiku" }));
    const info = await screen.findByRole("dialog", { name: /Claude 3.5 Haiku/ });
    expect(info).toHaveTextContent("anthropic/claude-3.5-haiku");
    expect(info).toHaveTextContent("128,000 tokens");
    expect(info).toHaveTextContent("STANDARD");
    expect(callMock("models:requestRefresh")).not.toHaveBeenCalled();
  });
});

function savedTemplate(overrides: Partial<SavedTemplate> = {}): SavedTemplate {
  return {
    _id: "tmpl1" as SavedTemplate["_id"],
    _creationTime: 1,
    name: "Refund replies",
    description: "How support bots handle refunds",
    category: "customer-service",
    isPublic: false,
    tags: ["support", "refunds", "tone", "email"],
    usageCount: 3,
    templateData: templateDataOfState(completeState({ userPrompt: "Reply politely." })),
    updatedAt: 1,
    isOwn: true,
    ...overrides,
  };
}

describe("Template Library", () => {
  beforeEach(() => {
    setQueryResult("templates:listOwn", [savedTemplate()]);
    setQueryResult("templates:listPublic", [
      savedTemplate({
        _id: "tmpl2" as SavedTemplate["_id"],
        name: "Shared SEO check",
        isOwn: false,
        isPublic: true,
        tags: [],
      }),
      savedTemplate({
        _id: "tmpl3" as SavedTemplate["_id"],
        name: "Public code review",
        isOwn: false,
        isPublic: true,
        category: "technical",
        tags: [],
      }),
    ]);
  });

  it("lists own and public templates with counts, search, preview, and applies even if counting the use fails", async () => {
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Template Library" }));
    const dialog = await screen.findByRole("dialog", { name: "Template Library" });
    expect(within(dialog).getByRole("tab", { name: "My Templates (1)" })).toBeInTheDocument();
    expect(within(dialog).getByRole("tab", { name: "Public Library (2)" })).toBeInTheDocument();
    // Three of the four tags, then +1.
    const tags = within(dialog).getByRole("list", { name: "Tags" });
    expect(
      within(tags)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["support", "refunds", "tone", "+1"]);

    await fill(user, within(dialog).getByLabelText("Search templates"), "nothing like this");
    expect(within(dialog).getByText("No Personal Templates")).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText("Search templates"));
    await fill(user, within(dialog).getByLabelText("Search templates"), "REFUNDS");
    await user.click(within(dialog).getByRole("button", { name: "Preview Refund replies" }));
    const preview = within(dialog).getByTestId("template-preview");
    expect(preview).toHaveTextContent("Calm Agent");
    expect(preview).toHaveTextContent("Refund request");
    expect(preview).toHaveTextContent("Reply politely.");

    callMock("templates:recordUse").mockRejectedValue(new Error("offline"));
    await user.click(within(dialog).getByRole("button", { name: "Apply Refund replies" }));
    await waitFor(() =>
      expect(storedDraft().appliedTemplate).toEqual({ kind: "saved", id: "tmpl1", name: "Refund replies" }),
    );
    expect(callMock("templates:recordUse")).toHaveBeenCalledWith({ templateId: "tmpl1" });
    expect(storedDraft().userPrompt).toBe("Reply politely.");
    expect(storedDraft().category).toBe("customer-service");
  });

  it("filters the public library by category and shows its empty state", async () => {
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Template Library" }));
    const dialog = await screen.findByRole("dialog", { name: "Template Library" });
    await user.click(within(dialog).getByRole("tab", { name: "Public Library (2)" }));
    const categories = within(dialog).getByRole("group", { name: "Template library categories" });
    await user.click(within(categories).getByRole("button", { name: "Technical" }));
    expect(within(dialog).getByText("Public code review")).toBeInTheDocument();
    expect(within(dialog).queryByText("Shared SEO check")).not.toBeInTheDocument();
    await user.click(within(categories).getByRole("button", { name: "Marketing" }));
    expect(within(dialog).getByText("No Public Templates Found")).toBeInTheDocument();
  });

  it("confirms a delete and reports a failure", async () => {
    renderApp("/dashboard/setup");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Template Library" }));
    const dialog = await screen.findByRole("dialog", { name: "Template Library" });
    callMock("templates:remove").mockRejectedValue(new Error("nope"));
    await user.click(within(dialog).getByRole("button", { name: "Delete template Refund replies" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm).toHaveTextContent("Are you sure you want to delete this template?");
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Failed to delete template. Please try again.")).toBeInTheDocument();
    expect(callMock("templates:remove")).toHaveBeenCalledWith({ templateId: "tmpl1" });
  });
});

describe("rerun", () => {
  it("prefills from ?rerun= with the name suffixed and models matched against the catalog", async () => {
    const configuration = buildTestConfiguration(
      completeState({
        name: "Weekly check",
        generatorModelIds: ["openai/gpt-4o-mini", "gone/model"],
        responsesPerTopic: 4,
      }),
      byId,
    );
    oneShotQuery.mockResolvedValue({ test: { name: "Weekly check", configuration } });
    const { router } = renderApp("/dashboard/setup?rerun=test42");
    expect(await screen.findByDisplayValue("Weekly check (Rerun)")).toBeInTheDocument();
    expect(screen.getByLabelText("Responses per Topic")).toHaveValue(4);
    expect(storedDraft().generatorModelIds).toEqual(["openai/gpt-4o-mini"]);
    expect(oneShotQuery.mock.calls[0][1]).toEqual({ testId: "test42" });
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });

  it("says so when the test cannot be loaded", async () => {
    oneShotQuery.mockRejectedValue(new Error("Test not found."));
    renderApp("/dashboard/setup?rerun=nope");
    expect(await screen.findByText("The test to rerun could not be loaded.")).toBeInTheDocument();
  });
});
