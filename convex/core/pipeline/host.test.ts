// Tests starting together share the one worker host: only the first asks for it (runner.ensureHost,
// a scheduled job), the others are picked up by the host serving it; tests queued together share
// one scheduled dispatch. So a burst of starts does not take a scheduled-job slot per test
// (issue 32: Starter has 8). A dead host is replaced at its watch's next look, a second later.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api, internal } from "../../_generated/api";
import { createBackend, createUser, drainDispatch, sampleConfiguration, seedCatalog } from "../../test.helpers";
import { HOST_WATCH_MS } from "./host";

beforeEach(() => {
  vi.useFakeTimers();
  delete process.env.STRIPE_SECRET_KEY; // free mode: a new test's job is queued at once
});
afterEach(() => {
  vi.useRealTimers();
});

test("five tests starting together schedule one ensureHost job, and each is served", async () => {
  const t = createBackend();
  await seedCatalog(t, ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "maxProcessingJobs", value: 5 }));
  const owner = await createUser(t, "ada@example.com");
  for (let index = 0; index < 5; index++)
    await owner.as.mutation(api.tests.create, { configuration: sampleConfiguration() });
  await drainDispatch(t);
  const { jobs, served } = await t.run(async (ctx) => ({
    jobs: (await ctx.db.system.query("_scheduled_functions").collect()).map((job) => job.name),
    served: await ctx.db
      .query("testConcurrency")
      .withIndex("by_served", (q) => q.eq("served", true))
      .collect(),
  }));
  expect(served).toHaveLength(5);
  expect(jobs.filter((name) => name.includes("ensureHost"))).toHaveLength(1);
});

test("ten tests queued together schedule one dispatch, which starts them one after another", async () => {
  const t = createBackend();
  await seedCatalog(t, ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"]);
  await t.run((ctx) => ctx.db.insert("settings", { key: "maxProcessingJobs", value: 10 }));
  const owner = await createUser(t, "ada@example.com");
  for (let index = 0; index < 10; index++)
    await owner.as.mutation(api.tests.create, { configuration: sampleConfiguration() });
  const dispatches = () =>
    t.run(async (ctx) =>
      (await ctx.db.system.query("_scheduled_functions").collect()).filter((job) => job.name.includes("dispatch")),
    );
  expect(await dispatches()).toHaveLength(1); // one for all ten (was one each: 10)

  // Each dispatch starts one job and, once its calls exist, asks for the next: never two scheduled at once.
  let started = 0;
  for (let round = 0; round < 12 && started < 10; round++) {
    const before = (await dispatches()).length;
    started += await t.mutation(internal.runner.dispatch, {});
    expect((await dispatches()).length - before).toBeLessThanOrEqual(1);
  }
  const jobs = await t.run(async (ctx) => await ctx.db.query("jobs").collect());
  expect(jobs.map((job) => job.status)).toEqual(Array(10).fill("processing"));
});

test("a dead host is replaced at its watch's next look, a second later, and the watch stops when nothing is served", async () => {
  const t = createBackend();
  await seedCatalog(t, ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"]);
  const owner = await createUser(t, "ada@example.com");
  const { testId } = await owner.as.mutation(api.tests.create, { configuration: sampleConfiguration() });
  await drainDispatch(t);
  const scheduled = (name: string) =>
    t.run(async (ctx) =>
      (await ctx.db.system.query("_scheduled_functions").collect()).filter(
        (job) => job.name.includes(name) && job.state.kind === "pending",
      ),
    );
  const host = () => t.run(async (ctx) => (await ctx.db.query("workerHosts").first())!);

  // The test is served: the host starts, and its watch looks a second later.
  await t.mutation(internal.runner.ensureHost, {});
  const [watch] = await scheduled("watchHost");
  expect(watch!.scheduledTime - Date.now()).toBeLessThanOrEqual(HOST_WATCH_MS);
  // Asked again (another test, the supervisor cron): still one watch.
  await t.mutation(internal.runner.ensureHost, {});
  await t.mutation(internal.runner.superviseWorkers, {});
  expect(await scheduled("watchHost")).toHaveLength(1);

  // The host leases the test's calls, then dies (its scheduled action ends: killed, restarted).
  const leased = await t.mutation(internal.runner.claimBatch, { testId, max: 8 });
  expect(leased.length).toBeGreaterThan(0);
  const dead = await host();
  await t.run(async (ctx) => await ctx.scheduler.cancel(dead.jobId!));

  // The watch's next look, a second later: a new host (calls handed back), and a look after it.
  vi.advanceTimersByTime(HOST_WATCH_MS);
  await t.mutation(internal.runner.watchHost, { chain: 1 });
  const replacement = await host();
  expect(replacement.epoch).toBe(dead.epoch + 1);
  const calls = await t.run(
    async (ctx) =>
      await ctx.db
        .query("calls")
        .withIndex("by_test_status", (q) => q.eq("testId", testId))
        .collect(),
  );
  expect(calls.filter((call) => call.status === "leased")).toEqual([]);
  expect((await scheduled("runner:host")).map((job) => job.args[0])).toContainEqual({
    epoch: replacement.epoch,
    recovering: true,
  });
  const looks = await scheduled("watchHost");
  expect(looks.map((job) => job.scheduledTime - Date.now())).toContainEqual(HOST_WATCH_MS);

  // A watch of an earlier chain does nothing.
  const before = (await scheduled("watchHost")).length;
  await t.mutation(internal.runner.watchHost, { chain: 0 });
  expect(await scheduled("watchHost")).toHaveLength(before);

  // The host ends with nothing to serve: the watch's next look schedules none.
  await t.run(async (ctx) => {
    for (const row of await ctx.db.query("testConcurrency").collect())
      await ctx.db.patch("testConcurrency", row._id, { served: false });
  });
  expect(await t.mutation(internal.runner.endHost, { epoch: replacement.epoch })).toBe(true);
  await t.run(async (ctx) => {
    for (const job of await ctx.db.system.query("_scheduled_functions").collect())
      if (job.name.includes("watchHost") && job.state.kind === "pending") await ctx.scheduler.cancel(job._id);
  });
  await t.mutation(internal.runner.watchHost, { chain: 1 });
  expect(await scheduled("watchHost")).toEqual([]);
});
