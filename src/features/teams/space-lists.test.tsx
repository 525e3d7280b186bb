// The lists show the chosen space: History and the dashboard ask for the
// team's tests when a team is chosen, and for the personal ones otherwise. The stand-in server
// answers by the arguments the page sends, as Convex does.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { getFunctionName, type FunctionReference } from "convex/server";
import { beforeEach, describe, expect, it, vi } from "vitest";

import {
  callMock,
  makeViewer,
  QueryFailure,
  resetCalls,
  resetConvexMock,
  setQueryResult,
  setSignedIn,
} from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import { CATALOG, catalogResult, completeState } from "@/test/fixtures/setup";
import { buildTestConfiguration, saveStoredSetup } from "@/features/setup/setup-state";
import { TEAM_MESSAGES } from "../../../convex/lib/teams";
import { SPACE_STORAGE_KEY } from "@/lib/space-context";

const TEAM_ID = "k57teamteamteamteamteamteam01";
const ME = makeViewer({ email: "ann@example.com" });

/** history:list and dashboard:home answer from `bySpace` by the teamId argument. */
const bySpace = vi.hoisted(() => new Map<string, (args: { teamId?: string }) => unknown>());

vi.mock("convex/react", () =>
  import("@/test/convex-mock").then((m) => ({
    ...m.convexReactModule,
    useQuery: (reference: FunctionReference<"query">, args?: unknown) => {
      const scripted = m.convexReactModule.useQuery(reference, args);
      const answer = bySpace.get(getFunctionName(reference));
      return answer && args !== "skip" ? answer((args ?? {}) as { teamId?: string }) : scripted;
    },
  })),
);
vi.mock("@convex-dev/auth/react", () => import("@/test/convex-mock").then((m) => m.convexAuthReactModule));

function historyRow(name: string) {
  const created = Date.UTC(2026, 0, 10, 9, 0, 0);
  return {
    _id: `k57${name.toLowerCase().replace(/\W/g, "")}`.padEnd(32, "0"),
    _creationTime: created,
    name,
    status: "completed",
    taskType: "marketing",
    startedAt: created,
    completedAt: created + 60_000,
    totalCostUsd: 0.01,
    topPerformers: [],
    juryVerdict: null,
    awaitingPayment: false,
    priceCents: 0,
    missingWork: { missingResponses: 0, missingEvaluations: 0 },
  };
}

beforeEach(() => {
  resetConvexMock();
  resetCalls();
  window.localStorage.clear();
  setSignedIn(ME);
  setQueryResult("teams:mine", [{ teamId: TEAM_ID, name: "Acme", role: "member" }]);
  bySpace.set("history:list", ({ teamId }) => ({
    tests: [historyRow(teamId === TEAM_ID ? "Team run" : "My own run")],
    total: 1,
  }));
});

describe("lists in the chosen space", () => {
  it("History lists the team's tests when the team is chosen", async () => {
    window.localStorage.setItem(SPACE_STORAGE_KEY, TEAM_ID);
    renderApp("/dashboard/history");
    expect(await screen.findByText("Team run")).toBeInTheDocument();
    expect(screen.queryByText("My own run")).not.toBeInTheDocument();
  });

  it("History lists the personal tests in the personal space", async () => {
    renderApp("/dashboard/history");
    expect(await screen.findByText("My own run")).toBeInTheDocument();
    expect(screen.queryByText("Team run")).not.toBeInTheDocument();
  });

  it("Run Test in a team's space starts the test in the team", async () => {
    window.localStorage.setItem(SPACE_STORAGE_KEY, TEAM_ID);
    saveStoredSetup(window.localStorage, { ownerId: ME._id, state: completeState() });
    setQueryResult("models:list", catalogResult());
    setQueryResult("tests:paymentMode", { mode: "free" });
    callMock("models:requestRefresh").mockResolvedValue(false);
    callMock("tests:create").mockResolvedValue({ testId: "test123", priceCents: 200, paymentRequired: false });
    const { router } = renderApp("/dashboard/setup");
    expect(await screen.findByText("Runs are free on this deployment")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: /Run Test/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/monitor"));
    const byId = new Map(CATALOG.map((model) => [model.id, model]));
    expect(callMock("tests:create")).toHaveBeenCalledWith({
      configuration: buildTestConfiguration(completeState(), byId),
      teamId: TEAM_ID,
    });
  });

  it("Billing shows the team's spend by member to the team's owners only", async () => {
    window.localStorage.setItem(SPACE_STORAGE_KEY, TEAM_ID);
    setQueryResult("billing:overview", { payments: [], creditTransactions: [], testsCompleted: 0 });
    setQueryResult("billing:teamSpend", {
      totalCents: 350,
      members: [
        { userId: "u2", name: "bob@example.com", spentCents: 250, tests: 1 },
        { userId: "u1", name: "Ann", spentCents: 100, tests: 1 },
      ],
    });
    setQueryResult("teams:mine", [{ teamId: TEAM_ID, name: "Acme", role: "owner" }]);
    const { unmount } = renderApp("/dashboard/billing");
    const table = await screen.findByRole("table", { name: "Team spend by member" });
    expect(screen.getByRole("heading", { name: "Team Spend: Acme" })).toBeInTheDocument();
    expect(table).toHaveTextContent("bob@example.com1$2.50");
    expect(table).toHaveTextContent("Total$3.50");
    unmount();

    setQueryResult("teams:mine", [{ teamId: TEAM_ID, name: "Acme", role: "member" }]);
    renderApp("/dashboard/billing");
    expect(await screen.findByRole("heading", { name: "Payment History" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: /Team Spend/ })).not.toBeInTheDocument();
  });

  it("a team test's results page open when the caller leaves the team moves to the access-lost screen", async () => {
    setQueryResult(
      "results:get",
      Object.assign(new QueryFailure("gone"), { data: { code: "NOT_FOUND", message: TEAM_MESSAGES.testAccessLost } }),
    );
    renderApp("/dashboard/results/k57testtesttesttesttesttest01");
    expect(await screen.findByText("You no longer have access to this test")).toBeInTheDocument();
    expect(screen.getByText(TEAM_MESSAGES.testAccessLost)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Try Again/i })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to History" })).toBeInTheDocument();
  });
});
