// the seeded admin opens /admin, sees the demo user, watches a running job
// complete without Refresh, cancels a queued job, retries a failed one, grants and removes admin
// with the confirmations; the demo user is turned away. Jobs are set up from Node through the
// backend (the demo user's real tests, their state set as the pipeline would).
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { api, internal } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import type { MutationCtx } from "../convex/_generated/server";
import { setJobStatus } from "../convex/core/jobs";
import { syncTestSummaryOf } from "../convex/core/testSummaries";
import { demoCaller, runOn, signIn, taglineConfiguration, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();

const run = <T>(fn: (ctx: MutationCtx) => Promise<T>) => runOn(e2e, fn);

/** A test of the demo user with its job put in `status` (queued ones wait for a dispatch). */
async function demoTest(name: string, status: "queued" | "failed"): Promise<Id<"jobs">> {
  const demo = await demoCaller(e2e);
  const { testId } = await demo.mutation(api.tests.create, {
    configuration: await taglineConfiguration(e2e, name, { responsesPerTopic: 1, includeExplanations: false }),
  });
  return await run(async (ctx) => {
    const job = (await ctx.db
      .query("jobs")
      .withIndex("by_test", (q) => q.eq("testId", testId))
      .unique())!;
    // Paid for (no longer a draft): an admin cannot run a test whose payment never settled.
    await ctx.db.patch("tests", testId, { awaitingPayment: undefined });
    if (status === "failed") {
      await ctx.db.patch("tests", testId, { status: "failed", errorMessage: "Gateway error 429: rate limit exceeded" });
      await setJobStatus(ctx, job, "failed", {
        completedAt: Date.now(),
        errorMessage: "Gateway error 429: rate limit exceeded",
      });
    } else {
      await setJobStatus(ctx, job, "queued");
    }
    // As the pipeline's own changes do: lists and the Retry check read the summary row.
    await syncTestSummaryOf(ctx, testId);
    return job._id;
  });
}

async function setMaxProcessingJobs(value: number) {
  await run(async (ctx) => {
    const row = await ctx.db
      .query("settings")
      .withIndex("by_key", (q) => q.eq("key", "maxProcessingJobs"))
      .unique();
    if (row) await ctx.db.patch("settings", row._id, { value });
    else await ctx.db.insert("settings", { key: "maxProcessingJobs", value });
  });
}

function jobRow(page: Page, testName: string) {
  return page.getByRole("table", { name: "Jobs" }).getByRole("row", { name: new RegExp(testName) });
}

async function openAdmin(page: Page) {
  await page.goto("/admin");
  await page.waitForURL((url) => url.pathname === "/login");
  await signIn(page, e2e.stack.admin.email, e2e.stack.admin.password);
  await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
}

describe("admin", () => {
  test("users, live jobs, cancel, retry, and admin rights with confirmations", async () => {
    const page = await e2e.newPage();
    await openAdmin(page);
    // A marker on the window survives everything but a reload.
    await page.evaluate(() => Object.assign(window, { __adminJourney: true }));
    await page.getByRole("group", { name: "Total Users" }).getByText("2").waitFor();

    // Users: the demo user, granted and then stripped of admin rights.
    await page.getByRole("tab", { name: "Users" }).click();
    const demoRow = page.getByRole("table", { name: "Users" }).getByRole("row", { name: /demo@modeljury\.dev/ });
    await demoRow.getByText("Demo User").waitFor();
    await demoRow.getByRole("button", { name: "Make Admin" }).click();
    const grant = page.getByRole("alertdialog");
    await grant.getByText("Are you sure you want to grant admin access for this user?").waitFor();
    await grant.getByRole("button", { name: "Make Admin" }).click();
    await demoRow.getByText("Admin", { exact: true }).waitFor();
    await demoRow.getByRole("button", { name: "Remove Admin" }).click();
    const remove = page.getByRole("alertdialog");
    await remove.getByText("Are you sure you want to remove admin access for this user?").waitFor();
    await remove.getByRole("button", { name: "Remove Admin" }).click();
    await demoRow.getByText("User", { exact: true }).waitFor();

    // A queued job (nothing may start) is cancelled after the confirmation.
    await setMaxProcessingJobs(0);
    await demoTest("E2E queued run", "queued");
    await page.getByRole("tab", { name: "Jobs" }).click();
    await jobRow(page, "E2E queued run").getByText("Queued", { exact: true }).waitFor();
    await jobRow(page, "E2E queued run").getByRole("button", { name: "Cancel" }).click();
    const cancel = page.getByRole("alertdialog");
    await cancel.getByText("Are you sure you want to cancel this job?").waitFor();
    await cancel.getByRole("button", { name: "Cancel Job" }).click();
    await jobRow(page, "E2E queued run").getByText("Cancelled", { exact: true }).waitFor();

    // A failed job is retried: queued again with one more retry, then it runs to completion
    // while the page watches, without Refresh.
    await demoTest("E2E failed run", "failed");
    await jobRow(page, "E2E failed run").getByText("Failed", { exact: true }).waitFor();
    await jobRow(page, "E2E failed run").getByRole("button", { name: "Details" }).click();
    await page
      .getByRole("region", { name: "Details of job E2E failed run" })
      .getByText("Rate limiting: reduce concurrency", { exact: false })
      .waitFor();
    // Closed again: its row (named after the job too) holds a 'Completed' term of its own.
    await jobRow(page, "E2E failed run").getByRole("button", { name: "Details" }).click();
    await page.getByRole("region", { name: "Details of job E2E failed run" }).waitFor({ state: "detached" });
    await jobRow(page, "E2E failed run").getByRole("button", { name: "Retry" }).click();
    await jobRow(page, "E2E failed run").getByText("1/3").waitFor();
    await jobRow(page, "E2E failed run").getByText("Queued", { exact: true }).waitFor();

    await setMaxProcessingJobs(10);
    await e2e.stack.backend.t.mutation(internal.runner.dispatch, {});
    await jobRow(page, "E2E failed run")
      .getByText(/^(Processing|Completed)$/)
      .waitFor();
    await jobRow(page, "E2E failed run").getByText("Completed", { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole("tab", { name: "Overview" }).click();
    await page.getByRole("list", { name: "Recent jobs" }).getByText("E2E failed run").waitFor();
    expect(await page.evaluate(() => (window as unknown as { __adminJourney?: boolean }).__adminJourney)).toBe(true);
    await page.getByRole("tab", { name: "System Health" }).click();
    await page.getByText("System Healthy").waitFor();
    await page.context().close();
  });

  test("the demo user sees Access Denied", async () => {
    const page = await e2e.newPage();
    await page.goto("/admin");
    await page.waitForURL((url) => url.pathname === "/login");
    await signIn(page, e2e.stack.demo.email, e2e.stack.demo.password);
    await page.getByRole("heading", { name: "Access Denied" }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByText("You don't have admin privileges to access this page.").waitFor();
    expect(await page.getByRole("heading", { name: "Admin Dashboard" }).count()).toBe(0);
    await page.context().close();
  });
});
