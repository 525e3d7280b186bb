import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import Papa from "papaparse";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { makeViewer, QueryFailure, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import { creditTransactionRows, paymentRows, toCsv } from "./billing-csv";
import type { BillingData } from "./billing-model";
import { captureDownloads, type Download } from "@/test/downloads";

type Payment = BillingData["payments"][number];
type Entry = BillingData["creditTransactions"][number];

const DATA: BillingData = {
  payments: [
    {
      _id: "pay1" as Payment["_id"],
      createdAt: Date.UTC(2025, 4, 2),
      completedAt: Date.UTC(2025, 4, 2),
      amountCents: 450,
      currency: "usd",
      status: "paid",
      testId: "test1" as Payment["testId"],
      testName: "Coffee taglines",
    },
    {
      _id: "pay2" as Payment["_id"],
      createdAt: Date.UTC(2025, 4, 1),
      completedAt: undefined,
      amountCents: 1200,
      currency: "usd",
      status: "pending",
      testId: undefined,
      testName: "Big comparison",
    },
    {
      _id: "pay3" as Payment["_id"],
      createdAt: Date.UTC(2025, 3, 1),
      completedAt: Date.UTC(2025, 3, 1),
      amountCents: 200,
      currency: "usd",
      status: "paid",
      testId: undefined,
      testName: "Deleted test",
    },
  ],
  creditTransactions: [
    {
      _id: "ct1" as Entry["_id"],
      createdAt: Date.UTC(2025, 4, 2),
      type: "purchase",
      amountCents: 450,
      description: "Payment for Test: Coffee taglines",
      testId: undefined,
    },
    {
      _id: "ct2" as Entry["_id"],
      createdAt: Date.UTC(2025, 4, 2),
      type: "test_cost",
      amountCents: 450,
      description: "Test: Coffee taglines",
      testId: undefined,
    },
    {
      _id: "ct3" as Entry["_id"],
      createdAt: Date.UTC(2025, 4, 3),
      type: "refund",
      amountCents: 100,
      description: "Refund",
      testId: undefined,
    },
    {
      _id: "ct4" as Entry["_id"],
      createdAt: Date.UTC(2025, 4, 4),
      type: "bonus",
      amountCents: 500,
      description: "Welcome bonus",
      testId: undefined,
    },
  ],
  testsCompleted: 6,
};

async function renderBilling(data: BillingData | QueryFailure | undefined) {
  setSignedIn(makeViewer());
  setQueryResult("billing:overview", data);
  renderApp("/dashboard/billing");
  await screen.findByRole("heading", { name: "Billing & Credits" });
}

function tile(label: string) {
  return screen.getAllByTestId("billing-tile").find((element) => within(element).queryByText(label))!;
}

describe("billing csv", () => {
  it("has the spec's columns and never estimated_cost or markup_multiplier", () => {
    const payments = Papa.parse<Record<string, string>>(toCsv(paymentRows(DATA.payments)), { header: true });
    expect(payments.meta.fields).toEqual([
      "id",
      "created_at",
      "completed_at",
      "test_id",
      "test_name",
      "amount_cents",
      "amount",
      "currency",
      "status",
      "refunded_at",
      "refund_reason",
      "partly_refunded_cents",
      "net_cents",
    ]);
    expect(payments.data[0]).toMatchObject({
      id: "pay1",
      amount: "4.50",
      status: "paid",
      test_name: "Coffee taglines",
      created_at: "2025-05-02T00:00:00.000Z",
    });
    const credits = Papa.parse<Record<string, string>>(toCsv(creditTransactionRows(DATA.creditTransactions)), {
      header: true,
    });
    expect(credits.meta.fields).toEqual([
      "id",
      "created_at",
      "transaction_type",
      "amount_cents",
      "amount",
      "description",
      "test_id",
    ]);
    for (const fields of [payments.meta.fields, credits.meta.fields]) {
      expect(fields).not.toContain("estimated_cost");
      expect(fields).not.toContain("markup_multiplier");
    }
  });
});

describe("billing page", () => {
  let downloads: Download[] = [];

  beforeEach(() => {
    downloads = captureDownloads();
  });
  afterEach(() => vi.restoreAllMocks());

  it("shows the three tiles: total of paid payments among those loaded, tests completed, transactions", async () => {
    await renderBilling(DATA);
    expect(within(tile("Total Spent")).getByText("$6.50")).toBeInTheDocument();
    expect(within(tile("Tests Completed")).getByText("6")).toBeInTheDocument();
    expect(within(tile("Transactions")).getByText("4")).toBeInTheDocument();
  });

  it("lists payments in a table with Date, Amount, Status and Test Details", async () => {
    await renderBilling(DATA);
    const table = screen.getByRole("table", { name: "Payment history" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Date", "Amount", "Status", "Test Details"]);
    // Which figure is which: the amount is the price; the calls' cost is elsewhere, and included.
    expect(screen.getByTestId("billing-price-note")).toHaveTextContent(
      "Each amount is a test's price, charged once; what its model calls cost the gateway is shown on History and its results, and is included in the price. A test stopped early is refunded the price of the calls it did not make, above the $2.00 minimum; a failed test's price is refunded in full.",
    );
    expect(within(table).getAllByRole("row")).toHaveLength(4);
    expect(within(table).getByRole("link", { name: "Coffee taglines" })).toHaveAttribute(
      "href",
      "/dashboard/results/test1",
    );
    expect(within(table).getByText("Pending")).toBeInTheDocument();
  });

  it("signs and colours credit transactions by type", async () => {
    await renderBilling(DATA);
    const rows = screen.getAllByTestId("credit-transaction");
    const amounts = rows.map((row) => within(row).getByTestId("credit-amount"));
    expect(amounts.map((amount) => amount.textContent)).toEqual(["+$4.50", "-$4.50", "+$1.00", "+$5.00"]);
    expect(amounts[0]).toHaveClass("text-green-700");
    expect(amounts[1]).toHaveClass("text-red-700");
    expect(amounts[2]).toHaveClass("text-blue-700");
    expect(amounts[3]).toHaveClass("text-purple-700");
  });

  it("exports payment-history.csv and credit-transactions.csv", async () => {
    const user = userEvent.setup();
    await renderBilling(DATA);
    await user.click(screen.getByRole("button", { name: "Export CSV: payment history" }));
    await user.click(screen.getByRole("button", { name: "Export CSV: credit transactions" }));
    expect(downloads.map((download) => download.name)).toEqual(["payment-history.csv", "credit-transactions.csv"]);
    expect((await downloads[0]!.text).split(/\r?\n/)[0]).toBe(
      "id,created_at,completed_at,test_id,test_name,amount_cents,amount,currency,status,refunded_at,refund_reason,partly_refunded_cents,net_cents",
    );
    expect((await downloads[1]!.text).split(/\r?\n/)[0]).toBe(
      "id,created_at,transaction_type,amount_cents,amount,description,test_id",
    );
  });

  it("shows refunded payments as refunded with the reason, outside Total Spent, and the refund in the ledger and CSV", async () => {
    const user = userEvent.setup();
    const refundedAt = Date.UTC(2025, 4, 6);
    await renderBilling({
      payments: [
        {
          _id: "pay9" as Payment["_id"],
          createdAt: Date.UTC(2025, 4, 5),
          completedAt: Date.UTC(2025, 4, 5),
          amountCents: 200,
          currency: "usd",
          status: "refunded",
          testId: undefined,
          testName: "Failed run",
          refundReason: "No responses were generated: 401 Unauthorized",
          refundedAt,
        },
        {
          _id: "pay8" as Payment["_id"],
          createdAt: Date.UTC(2025, 4, 4),
          completedAt: Date.UTC(2025, 4, 4),
          amountCents: 300,
          currency: "usd",
          status: "paid",
          testId: undefined,
          testName: "Good run",
        },
        {
          _id: "pay7" as Payment["_id"],
          createdAt: Date.UTC(2025, 4, 3),
          completedAt: Date.UTC(2025, 4, 3),
          amountCents: 1,
          currency: "usd",
          status: "amount_mismatch",
          testId: undefined,
          testName: "Odd run",
        },
      ],
      creditTransactions: [
        {
          _id: "ct9" as Entry["_id"],
          createdAt: refundedAt,
          type: "refund",
          amountCents: 200,
          description: "Refund for Test: Failed run (No responses were generated: 401 Unauthorized)",
          testId: undefined,
        },
      ],
      testsCompleted: 1,
    });
    expect(within(tile("Total Spent")).getByText("$3.00")).toBeInTheDocument();
    const table = screen.getByRole("table", { name: "Payment history" });
    expect(within(table).getByText("Refunded")).toBeInTheDocument();
    expect(within(table).getByText("Amount Mismatch")).toBeInTheDocument();
    const notes = within(table)
      .getAllByTestId("payment-note")
      .map((note) => note.textContent);
    expect(notes).toEqual([
      `Returned to your card on ${new Date(refundedAt).toLocaleDateString()}: No responses were generated: 401 Unauthorized.`,
      "The amount charged differs from the test's price, so the test was not started. We are looking into it.",
    ]);
    const [refund] = screen.getAllByTestId("credit-transaction");
    expect(refund).toHaveAttribute("data-type", "refund");
    expect(within(refund!).getByTestId("credit-amount")).toHaveTextContent("+$2.00");
    expect(within(refund!).getByTestId("credit-amount")).toHaveClass("text-blue-700");
    await user.click(screen.getByRole("button", { name: "Export CSV: payment history" }));
    const csv = Papa.parse<Record<string, string>>(await downloads[0]!.text, { header: true });
    expect(csv.data[0]).toMatchObject({
      status: "refunded",
      refunded_at: "2025-05-06T00:00:00.000Z",
      refund_reason: "No responses were generated: 401 Unauthorized",
    });
  });

  it("shows a test stopped early with its charge, its refund of the calls not made and the net, counted net in Total Spent", async () => {
    const user = userEvent.setup();
    await renderBilling({
      payments: [
        {
          _id: "pay6" as Payment["_id"],
          createdAt: Date.UTC(2025, 4, 5),
          completedAt: Date.UTC(2025, 4, 5),
          amountCents: 540,
          currency: "usd",
          status: "paid",
          testId: "test6" as Payment["testId"],
          testName: "Stopped run",
          refundedCents: 340,
        },
        {
          _id: "pay5" as Payment["_id"],
          createdAt: Date.UTC(2025, 4, 4),
          completedAt: Date.UTC(2025, 4, 4),
          amountCents: 300,
          currency: "usd",
          status: "paid",
          testId: undefined,
          testName: "Good run",
        },
      ],
      creditTransactions: [],
      testsCompleted: 1,
    });
    expect(within(tile("Total Spent")).getByText("$5.00")).toBeInTheDocument();
    const row = within(screen.getByRole("table", { name: "Payment history" }))
      .getAllByRole("row")
      .find((candidate) => within(candidate).queryByText("Stopped run"))!;
    expect(within(row).getByText("$5.40")).toBeInTheDocument();
    expect(within(row).getByTestId("payment-refund")).toHaveTextContent("Refunded$3.40");
    expect(within(row).getByTestId("payment-net")).toHaveTextContent("Net$2.00");
    await user.click(screen.getByRole("button", { name: "Export CSV: payment history" }));
    const csv = Papa.parse<Record<string, string>>(await downloads[0]!.text, { header: true });
    expect(csv.data[0]).toMatchObject({ amount_cents: "540", partly_refunded_cents: "340", net_cents: "200" });
  });

  it("has the empty states, with export disabled", async () => {
    await renderBilling({ payments: [], creditTransactions: [], testsCompleted: 0 });
    expect(screen.getByText("No payment history found")).toBeInTheDocument();
    expect(screen.getByText("No credit transactions found")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Export CSV: payment history" })).toBeDisabled();
    expect(within(tile("Total Spent")).getByText("$0.00")).toBeInTheDocument();
  });

  it("logs a load error and leaves the sections empty", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await renderBilling(new QueryFailure("down"));
    expect(await screen.findByText("No payment history found")).toBeInTheDocument();
    expect(screen.getByText("No credit transactions found")).toBeInTheDocument();
    expect(logged).toHaveBeenCalled();
  });
});
