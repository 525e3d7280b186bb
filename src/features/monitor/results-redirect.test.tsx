import { waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { makeViewer, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

import { rememberCurrentTestId } from "./current-test-storage";
import { makeMonitorData, TEST_ID } from "@/test/fixtures/monitor";
import { resultsRedirectTarget } from "./results-redirect";

describe("the /dashboard/results rule", () => {
  it("goes to history without a current test, or when it is not the caller's", () => {
    expect(resultsRedirectTarget(null, undefined, undefined)).toBe("/dashboard/history");
    expect(resultsRedirectTarget("t1", null, undefined)).toBe("/dashboard/history");
  });

  it("waits while the current test loads", () => {
    expect(resultsRedirectTarget("t1", undefined, undefined)).toBeNull();
    expect(resultsRedirectTarget("t1", "t1", undefined)).toBeNull();
  });

  it("goes to the current test's results only when it is completed", () => {
    expect(resultsRedirectTarget("t1", "t1", "completed")).toBe("/dashboard/results/t1");
    for (const status of ["pending", "running", "failed", "cancelled"]) {
      expect(resultsRedirectTarget("t1", "t1", status)).toBe("/dashboard/history");
    }
  });
});

describe("/dashboard/results", () => {
  beforeEach(() => {
    setSignedIn(makeViewer());
    window.sessionStorage.clear();
  });

  function visitedFrom(path: string) {
    const { router } = renderApp(path);
    const visited: string[] = [];
    router.subscribe("onBeforeNavigate", (event) => visited.push(event.toLocation.pathname));
    return visited;
  }

  it("redirects to history when the tab has no current test", async () => {
    const visited = visitedFrom("/dashboard/results");
    await waitFor(() => expect(visited).toContain("/dashboard/history"));
  });

  it("redirects to the results of the current test when it is completed", async () => {
    rememberCurrentTestId(TEST_ID);
    setQueryResult("tests:current", TEST_ID);
    setQueryResult("tests:monitor", makeMonitorData({ test: { status: "completed" } }));
    const visited = visitedFrom("/dashboard/results");
    await waitFor(() => expect(visited).toContain(`/dashboard/results/${TEST_ID}`));
    expect(visited).not.toContain("/dashboard/history");
  });

  it("redirects to history when the current test is still running", async () => {
    rememberCurrentTestId(TEST_ID);
    setQueryResult("tests:current", TEST_ID);
    setQueryResult("tests:monitor", makeMonitorData({ test: { status: "running" } }));
    const visited = visitedFrom("/dashboard/results");
    await waitFor(() => expect(visited).toContain("/dashboard/history"));
  });
});
