// a shared page is safe for anyone holding its link. Model output
// cannot make the viewer's browser fetch anything (an image in an answer is shown as a
// placeholder and never requested; a link shows its real address), and an anonymous viewer
// learns how many people watch, not who.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Id } from "../convex/_generated/dataModel";
import type { MutationCtx } from "../convex/_generated/server";
import { signIn, useE2E } from "./harness";

const e2e = useE2E();
const SEEDED_TEST = "Support replies: tone and accuracy";

/** A stand-in for a tracker's server: every request it gets is counted. */
let imageHost: Server;
let imageHits: string[] = [];
let imageOrigin = "";

beforeAll(async () => {
  imageHost = createServer((req, res) => {
    imageHits.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "image/gif", "Cache-Control": "no-store" });
    res.end(Buffer.from("R0lGODlhAQABAAAAACwAAAAAAQABAAA=", "base64"));
  });
  await new Promise<void>((resolve) => imageHost.listen(0, "127.0.0.1", resolve));
  imageOrigin = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => imageHost.close(resolve));
});

async function run<T>(fn: (ctx: MutationCtx) => Promise<T>): Promise<T> {
  return (await e2e.stack.backend.t.run((ctx) => fn(ctx as unknown as MutationCtx) as never)) as T;
}

async function demoTest(): Promise<Id<"tests">> {
  return await run(async (ctx) => {
    const user = (await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", e2e.stack.demo.email))
      .unique())!;
    const tests = await ctx.db
      .query("tests")
      .withIndex("by_user", (q) => q.eq("userId", user._id))
      .take(50);
    return tests.find((row) => row.name === SEEDED_TEST)!._id;
  });
}

describe("a shared page is safe for anyone holding the link", () => {
  test("an image in an answer is never requested, a link shows its address, and an anonymous visitor sees a count of viewers, not who", async () => {
    const testId = await demoTest();
    const pixel = `${imageOrigin}/pixel.gif?reader=shared-page`;
    // Every answer of the seeded test now carries a tracking image and a disguised link.
    await run(async (ctx) => {
      const responses = await ctx.db
        .query("responses")
        .withIndex("by_test", (q) => q.eq("testId", testId))
        .take(100);
      for (const response of responses) {
        await ctx.db.patch("responses", response._id, {
          content: `Here is my answer. ![tracking pixel](${pixel})\n\nRead [the official docs](https://docs.example/login) for more.`,
        });
      }
    });
    // The owner shares the results and keeps them open: the visitor is not alone.
    const owner = await e2e.newPage();
    await signIn(owner, e2e.stack.demo.email, e2e.stack.demo.password);
    await owner.goto(`/dashboard/results/${testId}`);
    await owner.getByRole("heading", { level: 1, name: SEEDED_TEST }).waitFor();
    await owner.getByRole("button", { name: "Share Results" }).click();
    await owner.getByRole("switch", { name: "Public sharing" }).click();
    const linkField = owner.getByLabel("Shareable link");
    await linkField.waitFor();
    const link = await linkField.inputValue();
    await owner.keyboard.press("Escape");

    imageHits = [];
    const visitor = await (await e2e.newContext()).newPage();
    const requested: string[] = [];
    visitor.on("request", (request) => requested.push(request.url()));
    await visitor.goto(link);
    await visitor.getByRole("heading", { level: 1, name: SEEDED_TEST }).waitFor();
    await visitor.getByRole("button", { name: /Sample Responses/ }).click();
    const samples = visitor.getByTestId("sample-response");
    await samples.first().waitFor();
    const shown = await samples.count();
    expect(shown).toBeGreaterThan(0);
    expect(await visitor.getByText(`Image not loaded: tracking pixel (${pixel})`).count()).toBe(shown);
    expect(await visitor.locator("[data-testid=sample-response] img").count()).toBe(0);
    await visitor.waitForLoadState("networkidle");
    expect(imageHits).toEqual([]);
    expect(requested.filter((url) => url.startsWith(imageOrigin))).toEqual([]);

    const docs = visitor.getByRole("link", { name: "the official docs" }).first();
    expect(await docs.getAttribute("href")).toBe("https://docs.example/login");
    expect(await docs.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(await samples.first().textContent()).toContain("the official docs (https://docs.example/login)");

    // The anonymous visitor sees that one other person watches, not their initials.
    const viewers = visitor.getByRole("group", { name: "1 other viewing" });
    await viewers.waitFor();
    expect(await viewers.textContent()).toBe("1 other viewing");
    expect(await visitor.getByTestId("viewer-avatars").count()).toBe(0);
    // The owner, signed in, still sees the visitor.
    await owner.getByRole("group", { name: "Also viewing: anonymous viewer" }).waitFor();
  });
});
