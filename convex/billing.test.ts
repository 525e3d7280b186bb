import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { createUser, createBackend, type TestBackend } from "./test.helpers";

async function seedBilling(t: TestBackend, userId: Id<"users">, payments: number, transactions: number) {
  await t.run(async (ctx) => {
    for (let index = 0; index < payments; index++) {
      await ctx.db.insert("payments", {
        userId,
        testName: `Test ${index}`,
        amountCents: 200 + index,
        currency: "usd",
        status: index % 2 === 0 ? "paid" : "pending",
      });
    }
    const types = ["purchase", "test_cost", "refund", "bonus"] as const;
    for (let index = 0; index < transactions; index++) {
      await ctx.db.insert("creditTransactions", {
        userId,
        type: types[index % types.length]!,
        amountCents: 100 + index,
        description: `Entry ${index}`,
      });
    }
  });
}

describe("billing", () => {
  test("a new user has nothing", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    expect(await ada.as.query(api.billing.overview, {})).toEqual({
      payments: [],
      creditTransactions: [],
      testsCompleted: 0,
    });
  });

  test("the 20 newest payments and 50 newest credit transactions of the caller only", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com");
    await seedBilling(t, ada.userId, 25, 60);
    await seedBilling(t, bob.userId, 2, 2);
    await t.run((ctx) => ctx.db.patch("users", ada.userId, { completedTestCount: 4 }));

    const mine = await ada.as.query(api.billing.overview, {});
    expect(mine.payments).toHaveLength(20);
    expect(mine.payments[0]).toMatchObject({ testName: "Test 24", amountCents: 224, status: "paid", currency: "usd" });
    expect(mine.payments.at(-1)).toMatchObject({ testName: "Test 5" });
    expect(mine.creditTransactions).toHaveLength(50);
    expect(mine.creditTransactions[0]).toMatchObject({ description: "Entry 59", type: "bonus", amountCents: 159 });
    expect(mine.testsCompleted).toBe(4);

    const theirs = await bob.as.query(api.billing.overview, {});
    expect(theirs.payments.map((payment) => payment.testName)).toEqual(["Test 1", "Test 0"]);
    expect(theirs.creditTransactions).toHaveLength(2);
    expect(JSON.stringify(theirs)).not.toContain("Entry 59");
  });
});
