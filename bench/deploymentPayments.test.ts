// @vitest-environment node
// The bench's split of requests completed twice (deploymentPayments.ts), on a real dev gateway's
// completion log: the same request completed twice is found; one first completed just after a
// kill is told apart from an answer the product could have had.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startGateway } from "../dev/gateway/server";
import { billMark, billSince, completedTwice } from "./deploymentPayments";

let gateway: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gateway = await startGateway({ port: 0, fixedLatencyMs: 5, logCompletions: true });
});
afterAll(() => gateway.close());

async function complete(prompt: string, seed?: number) {
  const response = await fetch(`${gateway.url}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${gateway.settings.apiKey}` },
    body: JSON.stringify({
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: prompt }],
      stream: true,
      ...(seed === undefined ? {} : { seed }),
    }),
  });
  await response.text();
}

test("a request completed twice is counted once twice, and split by whether a kill came just before", async () => {
  const before = billMark(gateway.stats);
  await complete("Which kettle?");
  await complete("Which kettle?"); // the same call made again
  await complete("Which kettle?", 7); // another call: another seed
  await complete("Which toaster?");
  const firstCompletion = [...gateway.stats.completionTimes!.values()].find((times) => times.length === 2)![0]!;

  expect(completedTwice(gateway.stats, before.at, [])).toEqual({ afterKill: [], inTransit: [], otherwise: 1 });
  // A kill 40 ms before its first completion: finished for a client that was gone.
  expect(completedTwice(gateway.stats, before.at, [firstCompletion - 40])).toEqual({
    afterKill: [40],
    inTransit: [],
    otherwise: 0,
  });
  // A kill 10 ms after it: its answer was on its way.
  expect(completedTwice(gateway.stats, before.at, [firstCompletion + 10])).toEqual({
    afterKill: [],
    inTransit: [10],
    otherwise: 0,
  });
  // Kills long before and long after: the answer could have reached the product.
  expect(completedTwice(gateway.stats, before.at, [firstCompletion - 5_000, firstCompletion + 500])).toEqual({
    afterKill: [],
    inTransit: [],
    otherwise: 1,
  });

  const bill = billSince(gateway.stats, before, 3, [firstCompletion - 40]);
  expect(bill.target.pass).toBe(false); // 4 completed for 3 calls
  expect(bill.lostAnswers?.pass).toBe(true);
  expect(bill.line).toContain("completed twice: 1 first completed after a kill (40–40 ms)");
});
