import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { redirectToCheckout } from "@/lib/checkout-redirect";
import { callMock, makeViewer, mockCall, QueryFailure, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import type { DashboardHomeData } from "./dashboard-model";

vi.mock("@/lib/checkout-redirect", () => ({ redirectToCheckout: vi.fn() }));

const NOW = Date.now();
const MINUTE = 60_000;

const EMPTY_HOME: DashboardHomeData = {
  stats: {
    totalTests: 0,
    completedTests: 0,
    totalSpentCents: 0,
    averageSpentCents: 0,
    responses: 0,
    evaluations: 0,
    savedAssets: 0,
  },
  recentTests: [],
  personas: { total: 0, items: [] },
  topics: { total: 0, items: [] },
  activity: [],
};

const STATUSES = ["completed", "running", "failed", "pending", "cancelled"] as const;

function filledHome(): DashboardHomeData {
  return {
    stats: {
      totalTests: 12,
      completedTests: 7,
      totalSpentCents: 4800,
      averageSpentCents: 400,
      responses: 340,
      evaluations: 680,
      savedAssets: 9,
    },
    recentTests: Array.from({ length: 10 }, (_, index) => ({
      _id: `test${index}` as DashboardHomeData["recentTests"][number]["_id"],
      name: index === 3 ? "  " : `Test number ${index}`,
      status: STATUSES[index % STATUSES.length]!,
      modelCount: index + 1,
      createdAt: NOW - index * 60 * MINUTE,
      awaitingPayment: false,
      priceCents: 200,
    })),
    personas: {
      total: 7,
      items: Array.from({ length: 5 }, (_, index) => ({
        _id: `persona${index}` as DashboardHomeData["personas"]["items"][number]["_id"],
        name: `Persona ${index}`,
        description: `Description ${index}`,
        systemPrompt: `Prompt ${index}`,
        updatedAt: NOW - index * MINUTE,
      })),
    },
    topics: {
      total: 2,
      items: [
        {
          _id: "topic0" as DashboardHomeData["topics"]["items"][number]["_id"],
          title: "Coffee",
          description: "Cold brew",
          prompt: "Sell coffee",
          updatedAt: NOW,
        },
        {
          _id: "topic1" as DashboardHomeData["topics"]["items"][number]["_id"],
          title: "Bikes",
          description: "Repairs",
          prompt: "Fix bikes",
          updatedAt: NOW,
        },
      ],
    },
    activity: [
      {
        id: "test:test0",
        kind: "test_completed",
        title: "Test number 0",
        at: NOW - 30 * 1000,
        testId: "test0" as DashboardHomeData["recentTests"][number]["_id"],
      },
      { id: "persona:persona0", kind: "persona_saved", title: "Persona 0", at: NOW - 5 * MINUTE },
      { id: "topic:topic0", kind: "topic_saved", title: "Coffee", at: NOW - 3 * 60 * MINUTE },
      {
        id: "test:test1",
        kind: "test_running",
        title: "Test number 1",
        at: NOW - 2 * 24 * 60 * MINUTE,
        testId: "test1" as DashboardHomeData["recentTests"][number]["_id"],
      },
    ],
  };
}

/** The filled home whose newest test is an unpaid draft, "Abandoned checkout". */
function homeWithDraft(overrides: Partial<DashboardHomeData["recentTests"][number]> = {}): DashboardHomeData {
  const home = filledHome();
  home.recentTests[0] = {
    ...home.recentTests[0]!,
    name: "Abandoned checkout",
    status: "pending",
    awaitingPayment: true,
    ...overrides,
  };
  return home;
}

async function renderHome(data: DashboardHomeData | QueryFailure | undefined) {
  setSignedIn(makeViewer({ email: "grace.hopper@example.com" }));
  setQueryResult("dashboard:home", data);
  const view = renderApp("/dashboard");
  await screen.findByRole("heading", { name: "Welcome back, grace.hopper" });
  return view;
}

function statCard(label: string) {
  return screen.getAllByTestId("stat-card").find((card) => within(card).queryByText(label) !== null)!;
}

describe("dashboard home", () => {
  it("greets by the part of the email before the @ and offers Create New Test", async () => {
    await renderHome(EMPTY_HOME);
    expect(screen.getByRole("link", { name: "Create New Test" })).toHaveAttribute("href", "/dashboard/setup");
  });

  it("greets a brand-new user 'Welcome', not 'Welcome back'", async () => {
    setSignedIn(makeViewer({ email: "grace.hopper@example.com", isNew: true }));
    setQueryResult("dashboard:home", EMPTY_HOME);
    renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "Welcome, grace.hopper" })).toBeInTheDocument();
    expect(screen.queryByText(/Welcome back/)).not.toBeInTheDocument();
  });

  it("shows skeletons while loading, then every empty state for a new user", async () => {
    await renderHome(undefined);
    expect(screen.getByLabelText("Loading statistics")).toBeInTheDocument();
    expect(screen.getByLabelText("Loading recent tests")).toBeInTheDocument();
    setQueryResult("dashboard:home", EMPTY_HOME);
    expect(await screen.findByText("No tests yet")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Create Test" })).toHaveAttribute("href", "/dashboard/setup");
    expect(screen.getByText("No recent activity")).toBeInTheDocument();
    expect(screen.getByText("No personas saved")).toBeInTheDocument();
    expect(screen.getByText("No topics saved")).toBeInTheDocument();
    expect(within(statCard("Total Tests")).getByText("0 completed")).toBeInTheDocument();
    expect(within(statCard("Total Spent")).getByText("$0.00")).toBeInTheDocument();
  });

  it("fills the four stat cards from the counters", async () => {
    await renderHome(filledHome());
    expect(within(statCard("Total Tests")).getByText("12")).toBeInTheDocument();
    expect(within(statCard("Total Tests")).getByText("7 completed")).toBeInTheDocument();
    expect(within(statCard("Total Spent")).getByText("$48.00")).toBeInTheDocument();
    expect(within(statCard("Total Spent")).getByText("$4.00 avg per test")).toBeInTheDocument();
    expect(within(statCard("AI Responses")).getByText("340")).toBeInTheDocument();
    expect(within(statCard("AI Responses")).getByText("680 evaluations")).toBeInTheDocument();
    expect(within(statCard("Saved Assets")).getByText("9")).toBeInTheDocument();
    expect(within(statCard("Saved Assets")).getByText("7 personas · 2 topics")).toBeInTheDocument();
  });

  it("lists 5 of the 10 recent tests with name fallback, model count, status dots and links", async () => {
    await renderHome(filledHome());
    const list = screen.getByRole("list", { name: "Recent tests" });
    const rows = within(list).getAllByRole("link");
    expect(rows).toHaveLength(5);
    expect(rows[0]).toHaveAttribute("href", "/dashboard/results/test0");
    expect(within(rows[0]!).getByText("1 model", { exact: false })).toBeInTheDocument();
    expect(within(rows[3]!).getByText("Unnamed Test")).toBeInTheDocument();
    const tones = within(list)
      .getAllByTestId("test-status")
      .map((badge) => badge.dataset.tone);
    expect(tones).toEqual(["completed", "running", "failed", "other", "other"]);
    const dots = within(list).getAllByTestId("status-dot");
    expect(dots[0]).toHaveClass("bg-green-500");
    expect(dots[1]).toHaveClass("bg-blue-500", "animate-pulse");
    expect(dots[2]).toHaveClass("bg-red-500");
    expect(dots[3]).toHaveClass("bg-yellow-500");
    expect(screen.getByRole("link", { name: "View All" })).toHaveAttribute("href", "/dashboard/history");
  });

  it("offers an unpaid draft Complete Payment and Discard instead of a results link", async () => {
    const home = homeWithDraft({ priceCents: 240 });
    mockCall("payments:createCheckout", async () => ({ url: "https://checkout.example/s/1", sessionId: "cs_1" }));
    await renderHome(home);
    const list = screen.getByRole("list", { name: "Recent tests" });
    const draft = within(list).getByRole("listitem", { name: "Abandoned checkout, Pending Payment" });
    expect(within(draft).queryByRole("link")).toBeNull();
    expect(within(list).getAllByRole("link")).toHaveLength(4);

    await userEvent.click(within(draft).getByRole("button", { name: "Complete Payment for Abandoned checkout" }));
    const dialog = await screen.findByRole("dialog", { name: "Complete Payment" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Pay $2.40" }));
    await waitFor(() => expect(redirectToCheckout).toHaveBeenCalledWith("https://checkout.example/s/1"));
    expect(callMock("payments:createCheckout")).toHaveBeenCalledWith({ testId: "test0" });
  });

  it("discards an unpaid draft after a confirmation", async () => {
    const home = homeWithDraft();
    await renderHome(home);
    await userEvent.click(screen.getByRole("button", { name: "Discard Abandoned checkout" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Discard Draft" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Discard" }));
    await waitFor(() => expect(callMock("tests:remove")).toHaveBeenCalledWith({ testId: "test0" }));
  });

  it("has the quick actions", async () => {
    await renderHome(filledHome());
    const actions = screen.getByRole("navigation", { name: "Quick actions" });
    expect(within(actions).getByRole("link", { name: /^New Test/ })).toHaveAttribute("href", "/dashboard/setup");
    expect(within(actions).getByRole("link", { name: /^Monitor/ })).toHaveAttribute("href", "/dashboard/monitor");
    expect(within(actions).getByRole("link", { name: /^History/ })).toHaveAttribute("href", "/dashboard/history");
  });

  it("shows recent activity with relative times, tests linking to their results", async () => {
    await renderHome(filledHome());
    const list = screen.getByRole("list", { name: "Recent activity" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "Test completed: Test number 0Just now",
      "Persona saved: Persona 05m ago",
      "Topic saved: Coffee3h ago",
      "Test started: Test number 12d ago",
    ]);
    expect(within(items[0]!).getByRole("link")).toHaveAttribute("href", "/dashboard/results/test0");
    expect(list).toHaveClass("overflow-y-auto");
  });

  it("shows the first 5 saved personas with '+N more' and Manage links", async () => {
    await renderHome(filledHome());
    const personas = screen.getByRole("list", { name: "Saved Personas" });
    expect(within(personas).getAllByRole("listitem")).toHaveLength(5);
    expect(screen.getByText("+2 more")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Manage saved personas" })).toHaveAttribute("href", "/dashboard/setup");
    expect(screen.getByRole("link", { name: "Manage saved topics" })).toHaveAttribute("href", "/dashboard/setup");
    expect(within(screen.getByRole("list", { name: "Saved Topics" })).getAllByRole("listitem")).toHaveLength(2);
  });

  it("adds a persona and edits a topic through their modals", async () => {
    const user = userEvent.setup();
    await renderHome(filledHome());
    await user.click(screen.getByRole("button", { name: "Add persona" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Persona" });
    await user.click(within(dialog).getByRole("button", { name: "Add Persona" }));
    expect(within(dialog).getByText("Persona name is required.")).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Name"), "Pirate");
    await user.type(within(dialog).getByLabelText("Description"), "Talks like a pirate");
    await user.type(within(dialog).getByLabelText("System Prompt"), "Arr.");
    await user.click(within(dialog).getByRole("button", { name: "Add Persona" }));
    await waitFor(() =>
      expect(callMock("personas:create")).toHaveBeenCalledWith({
        name: "Pirate",
        description: "Talks like a pirate",
        systemPrompt: "Arr.",
      }),
    );
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await user.click(screen.getByRole("button", { name: "Edit topic Coffee" }));
    const editor = await screen.findByRole("dialog", { name: "Edit Topic" });
    expect(within(editor).getByLabelText("Title")).toHaveValue("Coffee");
    await user.clear(within(editor).getByLabelText("Title"));
    await user.type(within(editor).getByLabelText("Title"), "Espresso");
    await user.click(within(editor).getByRole("button", { name: "Save Changes" }));
    await waitFor(() =>
      expect(callMock("topics:update")).toHaveBeenCalledWith({
        topicId: "topic0",
        title: "Espresso",
        description: "Cold brew",
        prompt: "Sell coffee",
      }),
    );
  });

  it("shows an error with Try Again when the dashboard cannot load", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    await renderHome(new QueryFailure("boom"));
    expect(await screen.findByText("Failed to load your dashboard")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
  });
});
