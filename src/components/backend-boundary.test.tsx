import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { authTokenStorageKey } from "@/lib/session";
import { backendMounts } from "@/test/backend-mock";
import { makeViewer, mockCall, setSignedIn, setSignedOut } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

const CONVEX_URL = "https://happy-otter-123.convex.cloud";

function storeSession() {
  window.localStorage.setItem(authTokenStorageKey(CONVEX_URL), "a.jwt.token");
}

describe("the backend loads only where it is needed", () => {
  beforeEach(() => {
    // The monitor asks the server about a payment return; Stripe has not seen these sessions.
    mockCall("payments:verify", async () => ({ verified: false, testId: null }));
    backendMounts.count = 0;
    vi.stubEnv("VITE_CONVEX_URL", CONVEX_URL);
  });
  afterEach(() => vi.unstubAllEnvs());

  it("uses Convex Auth's storage key: the namespace is the client's address without punctuation", () => {
    expect(authTokenStorageKey("http://127.0.0.1:3210")).toBe("__convexAuthJWT_http1270013210");
    expect(authTokenStorageKey(CONVEX_URL)).toBe("__convexAuthJWT_httpshappyotter123convexcloud");
  });

  it("shows the landing page to a visitor without mounting the backend", async () => {
    renderApp("/");
    await screen.findByRole("heading", { name: "Find the right AI model for the job" });
    expect(screen.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
    expect(screen.getByRole("link", { name: "ModelJury home" })).toHaveAttribute("href", "/");
    expect(backendMounts.count).toBe(0);
  });

  it("treats a stored session as signed in on the public pages: Dashboard and a logo to /dashboard", async () => {
    storeSession();
    renderApp("/features");
    await screen.findByRole("heading", { name: "Everything you need to choose a model with evidence" });
    expect(screen.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(screen.getByRole("link", { name: "ModelJury home" })).toHaveAttribute("href", "/dashboard");
    expect(screen.queryByRole("link", { name: "Sign In" })).not.toBeInTheDocument();
    expect(backendMounts.count).toBe(0);
  });

  it("mounts the backend for a page that needs it and keeps it when going back to a public page", async () => {
    const { router } = renderApp("/login");
    await screen.findByRole("heading", { name: "Sign in to your account" });
    expect(backendMounts.count).toBe(1);
    await router.navigate({ to: "/" });
    await screen.findByRole("heading", { name: "Find the right AI model for the job" });
    await router.navigate({ to: "/contact" });
    await screen.findByRole("heading", { level: 1 });
    expect(backendMounts.count).toBe(1);
  });

  it("on a public page, the real session decides once the backend is mounted", async () => {
    setSignedIn(makeViewer());
    const { router } = renderApp("/signup");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    await router.navigate({ to: "/" });
    expect(await screen.findByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
  });

  it("sends a payment return on the landing page to the monitor when the stored session is real", async () => {
    storeSession();
    setSignedIn(makeViewer());
    const { router } = renderApp("/?session_id=cs_test_7");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/monitor"));
    expect(router.state.location.search).toEqual({ session_id: "cs_test_7" });
  });

  it("keeps a payment return on the landing page when the stored session has ended", async () => {
    storeSession();
    setSignedOut();
    const { router } = renderApp("/?session_id=cs_test_8");
    await screen.findByRole("heading", { name: "Find the right AI model for the job" });
    await waitFor(() => expect(backendMounts.count).toBe(1));
    expect(router.state.location.pathname).toBe("/");
    expect(screen.getByRole("link", { name: "Sign In" })).toBeInTheDocument();
  });

  it("leaves a payment return alone, without the backend, for a visitor with no stored session", async () => {
    const { router } = renderApp("/?session_id=cs_test_9");
    await screen.findByRole("heading", { name: "Find the right AI model for the job" });
    expect(router.state.location.pathname).toBe("/");
    expect(backendMounts.count).toBe(0);
  });
});
