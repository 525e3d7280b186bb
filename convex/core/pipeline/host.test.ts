// Tests starting together share the one worker host: only the first asks for it (runner.ensureHost,
// a scheduled job), the others are picked up by the host serving it, so a burst of starts does not
// take a scheduled-job slot per test (issue 32: Starter has 8).
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api } from "../../_generated/api";
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
