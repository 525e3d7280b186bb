// History says which tests stopped when settled and which ran repeats (issue 35): from the
// summary row (core/testSummaries.ts summaryOf), kept in line with the test.
import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { syncTestSummary } from "./core/testSummaries";
import { seedFinishedTest } from "./finishedTests.fixture";
import { createBackend, createUser } from "./test.helpers";

describe("history rows of settled and repeated tests", () => {
  test("say 'Settled after 38 of 100 pairs' and the repeats; a plain test says neither", async () => {
    const t = createBackend();
    const owner = await createUser(t, "history.settle@example.com");
    const plain = await seedFinishedTest(t, { userId: owner.userId, responses: 4, name: "Plain" });
    const settled = await seedFinishedTest(t, { userId: owner.userId, responses: 4, name: "Settled" });
    // As the test's end leaves it: stopped after 38 pairs, its summary synced with it.
    await t.run(async (ctx) => {
      const test = (await ctx.db.get("tests", settled))!;
      await ctx.db.patch("tests", settled, {
        configuration: { ...test.configuration, repeats: 3 },
        stopped: { reason: "settled", pairsDone: 38, pairsTotal: 100 },
      });
      await syncTestSummary(ctx, (await ctx.db.get("tests", settled))!);
    });
    const { tests } = await owner.as.query(api.history.list, {});
    const byId = new Map(tests.map((row) => [row._id, row]));
    expect(byId.get(settled)).toMatchObject({ settledAfter: "Settled after 38 of 100 pairs", repeats: 3 });
    expect(byId.get(plain)).not.toHaveProperty("settledAfter");
    expect(byId.get(plain)).not.toHaveProperty("repeats");
  });
});
