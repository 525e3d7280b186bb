import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { makeViewer, mockCall, setAuthLoading, setSignedIn, setSignedOut } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

beforeEach(() => {
  // The monitor asks the server about a payment return; Stripe has not seen these sessions.
  mockCall("payments:verify", async () => ({ verified: false, testId: null }));
});

describe("routing rules", () => {
  it("shows a spinner while the session loads, then sends a signed-out visitor to /login with the origin", async () => {
    setAuthLoading();
    const { router } = renderApp("/dashboard");
    expect(await screen.findByRole("status", { name: "Loading your session" })).toBeInTheDocument();
    setSignedOut();
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(router.state.location.search).toEqual({ redirect: "/dashboard" });
    expect(await screen.findByRole("heading", { name: "Sign in to your account" })).toBeInTheDocument();
  });

  it("shows the dashboard home in the app shell to a signed-in user", async () => {
    setSignedIn(makeViewer({ email: "ada@example.com" }));
    renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "Welcome back, ada" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Create New Test" })).toHaveAttribute("href", "/dashboard/setup");
    expect(screen.getByRole("navigation", { name: "Main" })).toBeInTheDocument();
  });

  it("sends a signed-in user away from /login to the dashboard", async () => {
    setSignedIn(makeViewer());
    const { router } = renderApp("/login");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("ignores a redirect that leaves the site", async () => {
    setSignedIn(makeViewer());
    const { router } = renderApp("/login?redirect=%2F%2Fevil.example");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("sends an unknown path to / when signed out", async () => {
    const { router } = renderApp("/no/such/page");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(await screen.findByRole("heading", { name: "Find the right AI model for the job" })).toBeInTheDocument();
  });

  it("sends an unknown path to /dashboard when signed in", async () => {
    setSignedIn(makeViewer());
    const { router } = renderApp("/no/such/page");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("keeps a payment return for a signed-out visitor (the guard will carry it through sign-in)", async () => {
    const { router } = renderApp("/dashboard?session_id=cs_test_1");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(router.state.location.search).toEqual({ redirect: "/dashboard?session_id=cs_test_1" });
  });
});

describe("payment return", () => {
  it("rewrites any address carrying session_id to /dashboard/monitor for a signed-in user", async () => {
    setSignedIn(makeViewer());
    const { router } = renderApp("/dashboard?session_id=cs_test_42");
    const visited: string[] = [];
    router.subscribe("onBeforeNavigate", (event) => visited.push(event.toLocation.href));
    await waitFor(() => expect(visited).toContain("/dashboard/monitor?session_id=cs_test_42"));
  });
});
