// Tests starting together share the one worker host: only the first asks for it (runner.ensureHost,
// a scheduled job), the others are picked up by the host serving it; tests queued together share
// one scheduled dispatch. So a burst of starts does not take a scheduled-job slot per test
// (issue 32: Starter has 8).
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api, internal } from "../../_generated/api";
import { createBackend, createUser, drainDispatch, sampleConfiguration, seedCatalog } from "../../test.helpers";

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
