import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";

import { callMock, makeViewer, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

const ADMIN = makeViewer({ _id: "admin-id" as never, email: "admin@modeljury.dev", isAdmin: true });
const DAY = 86_400_000;
const CREATED = Date.UTC(2025, 0, 15, 10, 0, 0);

function job(overrides: Record<string, unknown> = {}) {
  return {
    _id: "jobaaaaa1111",
    _creationTime: CREATED,
    testId: "test1",
    userId: "demo-id",
    testName: "Support replies",
    userEmail: "demo@modeljury.dev",
    status: "processing",
    priority: 0,
    startedAt: CREATED + 1000,
    completedAt: null,
    errorMessage: null,
    retryCount: 0,
    maxRetries: 3,
    amountCents: 0,
    retryRefusal: null,
    ...overrides,
  };
}

/** What admin:jobDetails answers for a job whose test failed: its 4 calls failed, nothing came back. */
function detailsOfFailed(failedJob: ReturnType<typeof job>, progressData: Record<string, number>) {
  return {
    job: failedJob,
    progressData,
    test: {
      status: "failed",
      responsesCount: 0,
      evaluationsCount: 0,
      expectedResponses: 4,
      expectedEvaluations: 4,
      failedCalls: 4,
      lastCallError: null,
    },
  };
}

const USERS = {
  total: 2,
  users: [
    {
      _id: "demo-id",
      _creationTime: CREATED,
      email: "demo@modeljury.dev",
      fullName: "Demo User",
      isAdmin: false,
      testCount: 3,
      totalSpentCents: 1250,
      lastSignInAt: null,
    },
    {
      _id: "admin-id",
      _creationTime: CREATED - DAY,
      email: "admin@modeljury.dev",
      fullName: null,
      isAdmin: true,
      testCount: 0,
      totalSpentCents: 0,
      lastSignInAt: CREATED,
    },
  ],
};

function healthy(overrides: Record<string, unknown> = {}) {
  return {
    queuedJobs: 0,
    processingJobs: 1,
    stuckJobs: 0,
    stuck: [],
    isHealthy: true,
    lastUpdated: CREATED,
    ...overrides,
  };
}

function seedAdminData() {
  setQueryResult("admin:stats", {
    totalUsers: 2,
    totalJobs: 3,
    activeJobs: 1,
    queuedJobs: 0,
    processingJobs: 1,
    completedJobs: 2,
    failedJobs: 0,
    cancelledJobs: 0,
    totalRevenueCents: 123456,
    successRate: (2 / 3) * 100,
  });
  setQueryResult("admin:health", healthy());
  setQueryResult("admin:listJobs", { total: 3, jobs: [job()] });
  setQueryResult("admin:listUsers", USERS);
  setQueryResult("admin:listAlerts", []);
  setQueryResult("contact:list", []);
  setQueryResult("admin:gatewayLoad", { tests: [], exchanges: 0, rateLimited: 0, rateLimitedShare: null });
}

beforeEach(() => {
  setSignedIn(ADMIN);
  seedAdminData();
});

describe("access", () => {
  it("says it is checking while the profile loads", async () => {
    setQueryResult("users:viewer", undefined);
    renderApp("/admin");
    expect(await screen.findByText("Checking admin access...")).toBeInTheDocument();
  });

  it("turns non-admins away", async () => {
    setSignedIn(makeViewer({ isAdmin: false }));
    renderApp("/admin");
    expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeInTheDocument();
    expect(screen.getByText("You don't have admin privileges to access this page.")).toBeInTheDocument();
    expect(screen.queryByText("Admin Dashboard")).not.toBeInTheDocument();
  });
});

describe("overview", () => {
  it("shows the figures, the recent jobs, and follows a job's state live", async () => {
    renderApp("/admin");
    expect(await screen.findByRole("heading", { name: "Admin Dashboard" })).toBeInTheDocument();
    expect(screen.getByText("System administration and monitoring")).toBeInTheDocument();
    for (const name of ["Overview", "Users", "Jobs", "System Health"])
      expect(screen.getByRole("tab", { name })).toBeInTheDocument();

    expect(within(screen.getByRole("group", { name: "Total Users" })).getByText("2")).toBeInTheDocument();
    const jobs = within(screen.getByRole("group", { name: "Total Jobs" }));
    expect(jobs.getByText("3")).toBeInTheDocument();
    expect(jobs.getByText("1 active")).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Total Revenue" })).getByText("$1234.56")).toBeInTheDocument();
    const rate = within(screen.getByRole("group", { name: "Success Rate" }));
    expect(rate.getByText("66.7%")).toBeInTheDocument();
    expect(rate.getByText("2 completed")).toBeInTheDocument();
    expect(screen.queryByText("System Health Warning")).not.toBeInTheDocument();

    const recent = within(screen.getByRole("list", { name: "Recent jobs" }));
    expect(recent.getByText("Support replies")).toBeInTheDocument();
    expect(recent.getByText("demo@modeljury.dev")).toBeInTheDocument();
    expect(recent.getByText("Processing")).toBeInTheDocument();

    // The job finishes elsewhere: the subscription delivers it, no Refresh needed.
    setQueryResult("admin:listJobs", { total: 3, jobs: [job({ status: "completed", completedAt: CREATED + 61_000 })] });
    expect(await recent.findByText("Completed")).toBeInTheDocument();
  });

  it("warns about stuck jobs and a queue backlog", async () => {
    setQueryResult("admin:health", healthy({ queuedJobs: 12, stuckJobs: 1, isHealthy: false }));
    renderApp("/admin");
    const banner = await screen.findByRole("alert");
    expect(within(banner).getByText("System Health Warning")).toBeInTheDocument();
    expect(within(banner).getByText("1 stuck job (processing for over 1 hour).")).toBeInTheDocument();
    expect(within(banner).getByText("High queue backlog: 12 jobs waiting.")).toBeInTheDocument();
  });
});

describe("users", () => {
  it("searches by email or name and counts against the total", async () => {
    const user = userEvent.setup();
    renderApp("/admin?tab=users");
    const table = await screen.findByRole("table", { name: "Users" });
    expect(screen.getByText("2 of 2 users")).toBeInTheDocument();
    const demoRow = within(table).getByRole("row", { name: /demo@modeljury\.dev/ });
    expect(within(demoRow).getByText("Demo User")).toBeInTheDocument();
    expect(within(demoRow).getByText("User")).toBeInTheDocument();
    expect(within(demoRow).getByText("$12.50")).toBeInTheDocument();
    expect(within(demoRow).getByText("Never")).toBeInTheDocument();
    const adminRow = within(table).getByRole("row", { name: /admin@modeljury\.dev/ });
    expect(within(adminRow).getByText("Admin")).toBeInTheDocument();
    expect(within(adminRow).getByText("Jan 15, 2025")).toBeInTheDocument();

    await user.type(screen.getByPlaceholderText("Search users..."), "DEMO user");
    expect(screen.getByText("1 of 2 users")).toBeInTheDocument();
    expect(within(table).queryByRole("row", { name: /admin@modeljury\.dev/ })).not.toBeInTheDocument();
  });

  it("grants admin after the confirmation, and shows the alert with the reason when it fails", async () => {
    const user = userEvent.setup();
    renderApp("/admin?tab=users");
    const row = within(await screen.findByRole("table", { name: "Users" })).getByRole("row", {
      name: /demo@modeljury\.dev/,
    });
    await user.click(within(row).getByRole("button", { name: "Make Admin" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText("Are you sure you want to grant admin access for this user?")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Make Admin" }));
    await waitFor(() => expect(callMock("admin:setAdmin")).toHaveBeenCalledWith({ userId: "demo-id", isAdmin: true }));

    const { ConvexError } = await import("convex/values");
    callMock("admin:setAdmin").mockRejectedValueOnce(
      new ConvexError({
        code: "CONFLICT",
        message: "You are the only admin. Make another user an admin before removing your own admin rights.",
      }),
    );
    const adminRow = within(screen.getByRole("table", { name: "Users" })).getByRole("row", {
      name: /admin@modeljury\.dev/,
    });
    await user.click(within(adminRow).getByRole("button", { name: "Remove Admin" }));
    const removeDialog = await screen.findByRole("alertdialog");
    expect(
      within(removeDialog).getByText("Are you sure you want to remove admin access for this user?"),
    ).toBeInTheDocument();
    await user.click(within(removeDialog).getByRole("button", { name: "Remove Admin" }));
    expect(await screen.findByText("Failed to update admin status. Please try again.")).toBeInTheDocument();
    expect(screen.getByText(/You are the only admin/)).toBeInTheDocument();
  });

  it("deletes another user's account after the confirmation, never one's own", async () => {
    const user = userEvent.setup();
    renderApp("/admin?tab=users");
    const table = await screen.findByRole("table", { name: "Users" });
    const adminRow = within(table).getByRole("row", { name: /admin@modeljury\.dev/ });
    expect(within(adminRow).queryByRole("button", { name: "Delete user" })).not.toBeInTheDocument();
    await user.click(
      within(within(table).getByRole("row", { name: /demo@modeljury\.dev/ })).getByRole("button", {
        name: "Delete user",
      }),
    );
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText(/Payment and credit records are kept/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Delete User" }));
    await waitFor(() => expect(callMock("admin:deleteUser")).toHaveBeenCalledWith({ userId: "demo-id" }));
  });
});

describe("jobs", () => {
  const FAILED = job({
    _id: "jobfail22222",
    testName: "Failing run",
    status: "failed",
    errorMessage: "Gateway error 429: rate limit exceeded",
    retryCount: 3,
    completedAt: CREATED + 125_000,
    amountCents: 499,
  });
  const QUEUED = job({ _id: "jobqueu33333", testName: "Waiting run", status: "queued", startedAt: null });

  beforeEach(() => {
    setQueryResult("admin:listJobs", { total: 7, jobs: [job(), FAILED, QUEUED] });
  });

  it("lists the columns and filters by search", async () => {
    const user = userEvent.setup();
    renderApp("/admin?tab=jobs");
    const table = await screen.findByRole("table", { name: "Jobs" });
    expect(screen.getByText("3 of 7 jobs")).toBeInTheDocument();
    const failed = within(table).getByRole("row", { name: /Failing run/ });
    expect(within(failed).getByText("jobfail2")).toBeInTheDocument();
    expect(within(failed).getByText("$4.99")).toBeInTheDocument();
    expect(within(failed).getByText("2:04")).toBeInTheDocument();
    expect(within(failed).getByText("3/3")).toBeInTheDocument();
    expect(within(failed).getByRole("button", { name: "Retry" })).toBeInTheDocument();
    expect(within(failed).queryByRole("button", { name: "Cancel" })).not.toBeInTheDocument();
    const queued = within(table).getByRole("row", { name: /Waiting run/ });
    expect(within(queued).getAllByText("—")).toHaveLength(2); // no amount, no duration
    expect(within(queued).queryByRole("button", { name: "Retry" })).not.toBeInTheDocument();

    await user.type(screen.getByPlaceholderText("Search jobs..."), "jobqueu");
    expect(screen.getByText("1 of 7 jobs")).toBeInTheDocument();
  });

  it("cancels a queued job after the confirmation and retries a failed one", async () => {
    const user = userEvent.setup();
    renderApp("/admin?tab=jobs");
    const table = await screen.findByRole("table", { name: "Jobs" });
    await user.click(
      within(within(table).getByRole("row", { name: /Waiting run/ })).getByRole("button", { name: "Cancel" }),
    );
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText("Are you sure you want to cancel this job?")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel Job" }));
    await waitFor(() => expect(callMock("admin:cancelJob")).toHaveBeenCalledWith({ jobId: "jobqueu33333" }));

    callMock("admin:retryJob").mockRejectedValueOnce(new Error("[CONVEX M(admin:retryJob)] Server Error"));
    await user.click(
      within(within(table).getByRole("row", { name: /Failing run/ })).getByRole("button", { name: "Retry" }),
    );
    expect(await screen.findByText("Failed to retry job. Please try again.")).toBeInTheDocument();
    await user.click(
      within(within(table).getByRole("row", { name: /Failing run/ })).getByRole("button", { name: "Retry" }),
    );
    expect(callMock("admin:retryJob")).toHaveBeenLastCalledWith({ jobId: "jobfail22222" });
  });

  it("offers no Retry or Force Restart for a job whose payment was returned, and says why in its details", async () => {
    const user = userEvent.setup();
    const refusal = "This test's payment was returned to its owner, so it cannot run again without a new payment.";
    const REFUNDED = job({
      _id: "jobrefd44444",
      testName: "Refunded run",
      status: "failed",
      completedAt: CREATED + 60_000,
      amountCents: 499,
      retryRefusal: refusal,
    });
    setQueryResult("admin:listJobs", { total: 2, jobs: [FAILED, REFUNDED] });
    setQueryResult("admin:jobDetails", detailsOfFailed(REFUNDED, {}));
    renderApp("/admin?tab=jobs");
    const table = await screen.findByRole("table", { name: "Jobs" });
    const row = within(table).getByRole("row", { name: /Refunded run/ });
    expect(within(row).queryByRole("button", { name: "Retry" })).not.toBeInTheDocument();
    expect(
      within(within(table).getByRole("row", { name: /Failing run/ })).getByRole("button", { name: "Retry" }),
    ).toBeInTheDocument();
    await user.click(within(row).getByRole("button", { name: "More actions" }));
    expect(await screen.findByRole("menuitem", { name: "Force Restart" })).toHaveAttribute("aria-disabled", "true");
    await user.keyboard("{Escape}");
    await user.click(within(row).getByRole("button", { name: "Details" }));
    const panel = await screen.findByRole("region", { name: "Details of job Refunded run" });
    expect(within(panel).getByText(refusal)).toBeInTheDocument();
  });

  it("shows the cancel failure alert", async () => {
    const user = userEvent.setup();
    callMock("admin:cancelJob").mockRejectedValueOnce(new Error("boom"));
    renderApp("/admin?tab=jobs");
    const table = await screen.findByRole("table", { name: "Jobs" });
    await user.click(
      within(within(table).getByRole("row", { name: /Waiting run/ })).getByRole("button", { name: "Cancel" }),
    );
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Cancel Job" }));
    expect(await screen.findByText("Failed to cancel job. Please try again.")).toBeInTheDocument();
  });

  it("opens the details panel with the error analysis and changes the priority", async () => {
    const user = userEvent.setup();
    setQueryResult("admin:jobDetails", detailsOfFailed(FAILED, { responses: 0, evaluations: 0, failedCalls: 4 }));
    renderApp("/admin?tab=jobs");
    const table = await screen.findByRole("table", { name: "Jobs" });
    const row = within(table).getByRole("row", { name: /Failing run/ });
    await user.click(within(row).getByRole("button", { name: "Details" }));
    const panel = await screen.findByRole("region", { name: "Details of job Failing run" });
    expect(within(panel).getByText("jobfail22222")).toBeInTheDocument();
    expect(within(panel).getByText("Max Retries Reached")).toBeInTheDocument();
    expect(within(panel).getByText("Job failed after 3 retry attempts")).toBeInTheDocument();
    expect(within(panel).getByText("No Responses Generated")).toBeInTheDocument();
    expect(within(panel).getByText(/Rate limiting: reduce concurrency/)).toBeInTheDocument();
    expect(within(panel).getByLabelText("Progress data").textContent).toContain('"failedCalls": 4');

    const priority = within(panel).getByLabelText("Job priority");
    await user.clear(priority);
    await user.type(priority, "7");
    await user.click(within(panel).getByRole("button", { name: "Set Priority" }));
    await waitFor(() =>
      expect(callMock("admin:setJobPriority")).toHaveBeenCalledWith({ jobId: "jobfail22222", priority: 7 }),
    );

    await user.click(within(row).getByRole("button", { name: "Details" }));
    expect(screen.queryByRole("region", { name: "Details of job Failing run" })).not.toBeInTheDocument();
  });

  it("force restarts and deletes from the row's menu after confirmations", async () => {
    const user = userEvent.setup();
    renderApp("/admin?tab=jobs");
    const table = await screen.findByRole("table", { name: "Jobs" });
    const row = () => within(table).getByRole("row", { name: /Failing run/ });
    await user.click(within(row()).getByRole("button", { name: "More actions" }));
    await user.click(await screen.findByRole("menuitem", { name: "Force Restart" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Force Restart" }));
    await waitFor(() => expect(callMock("admin:forceRestartJob")).toHaveBeenCalledWith({ jobId: "jobfail22222" }));

    await user.click(within(row()).getByRole("button", { name: "More actions" }));
    await user.click(await screen.findByRole("menuitem", { name: "Delete Job" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText("This action cannot be undone.")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Delete Job" }));
    await waitFor(() => expect(callMock("admin:deleteJob")).toHaveBeenCalledWith({ jobId: "jobfail22222" }));
  });
});

describe("system health", () => {
  it("shows healthy, then needs attention with the stuck job, its alert and the contact messages", async () => {
    const user = userEvent.setup();
    renderApp("/admin?tab=health");
    expect(await screen.findByText("System Healthy")).toBeInTheDocument();
    expect(screen.getByText("All systems operating normally")).toBeInTheDocument();
    expect(screen.getByText("No open alerts")).toBeInTheDocument();
    expect(screen.getByText("No contact messages")).toBeInTheDocument();

    setQueryResult(
      "admin:health",
      healthy({
        stuckJobs: 1,
        isHealthy: false,
        stuck: [{ _id: "jobaaaaa1111", testName: "Support replies", since: CREATED }],
      }),
    );
    setQueryResult("admin:listAlerts", [
      {
        _id: "alert1",
        _creationTime: CREATED,
        kind: "stuck_job",
        jobId: "jobaaaaa1111",
        message: "Job jobaaaaa (Support replies) has been processing for 65 minutes.",
        jobStatus: "processing",
      },
    ]);
    setQueryResult("contact:list", [
      {
        _id: "msg1",
        createdAt: CREATED,
        name: "Grace",
        email: "grace@example.com",
        subject: "Billing Question",
        message: "Where is my invoice?",
        emailed: false,
      },
    ]);
    expect(await screen.findByText("System Needs Attention")).toBeInTheDocument();
    expect(screen.getByText("Issues detected that may require intervention")).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Stuck" })).getByText("1")).toBeInTheDocument();
    expect(screen.getByText("Where is my invoice?")).toBeInTheDocument();
    const alerts = within(screen.getByRole("list", { name: "Stuck job alerts" }));
    await user.click(alerts.getByRole("button", { name: "Resolve" }));
    await waitFor(() => expect(callMock("admin:resolveAlert")).toHaveBeenCalledWith({ alertId: "alert1" }));
  });

  it("shows each running test's gateway concurrency and the gateway's 429 rate", async () => {
    renderApp("/admin?tab=health");
    expect(await screen.findByText("No test is running")).toBeInTheDocument();
    setQueryResult("admin:gatewayLoad", {
      tests: [
        {
          testId: "testaaaa1111",
          testName: "Support replies",
          level: 16,
          inFlight: 15,
          exchanges: 400,
          rateLimited: 6,
          updatedAt: CREATED,
        },
      ],
      exchanges: 400,
      rateLimited: 6,
      rateLimitedShare: 6 / 400,
    });
    const list = within(await screen.findByRole("list", { name: "Gateway concurrency by running test" }));
    expect(list.getByText("Support replies")).toBeInTheDocument();
    expect(list.getByText("16")).toBeInTheDocument();
    expect(list.getByText("15 in flight")).toBeInTheDocument();
    expect(list.getByText("429: 6 of 400")).toBeInTheDocument();
    expect(screen.getByText(/Rate limited \(429\): 1\.5% of 400 gateway calls/)).toBeInTheDocument();
  });
});

describe("refresh", () => {
  it("mounts the tabs again", async () => {
    const user = userEvent.setup();
    renderApp("/admin?tab=users");
    const first = await screen.findByRole("table", { name: "Users" });
    await user.click(screen.getByRole("button", { name: "Refresh" }));
    const second = await screen.findByRole("table", { name: "Users" });
    expect(second).not.toBe(first);
  });
});
