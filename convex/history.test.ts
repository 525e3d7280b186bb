import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { seedFinishedTest, SEED_MODELS } from "./finishedTests.fixture";
import { createUser, createBackend } from "./test.helpers";

describe("history.list", () => {
  test("lists the caller's tests newest first as compact rows", async () => {
    const t = createBackend();
    const owner = await createUser(t, "owner@example.com");
    const other = await createUser(t, "other@example.com");
    await seedFinishedTest(t, { userId: owner.userId, responses: 4, evaluationsPerResponse: 1, name: "First" });
    await seedFinishedTest(t, { userId: owner.userId, responses: 4, name: "Second", status: "running" });
    await seedFinishedTest(t, { userId: other.userId, responses: 4, name: "Not mine" });

    const { tests, total } = await owner.as.query(api.history.list, {});
    expect(tests.map((row) => row.name)).toEqual(["Second", "First"]);
    expect(total).toBe(2);
    const first = tests[1];
    expect(first).toMatchObject({ status: "completed", taskType: "marketing" });
    expect(first.topPerformers).toEqual([SEED_MODELS[1].name, SEED_MODELS[0].name]);
    expect(first.totalCostUsd).toBeCloseTo(0.0006);
    expect(first.completedAt! - first.startedAt!).toBe(125_000);
    // Rows carry what the list shows, not the configuration or results.
    expect(Object.keys(first).sort()).toEqual(
      [
        "_creationTime",
        "_id",
        "awaitingPayment",
        "completedAt",
        "juryVerdict",
        "missingWork",
        "name",
        "priceCents",
        "startedAt",
        "status",
        "taskType",
        "topPerformers",
        "totalCostUsd",
      ].sort(),
    );
    expect(tests[0].topPerformers).toEqual([]);

    expect((await other.as.query(api.history.list, {})).tests.map((row) => row.name)).toEqual(["Not mine"]);
  });
});
