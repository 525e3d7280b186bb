// No claim without evidence: the README's kind of ci.yaml (one persona, one topic, one judge) run
// from the command-line runner. Its gates on "is best" and on a pass rate fail saying there is too
// little evidence (one pair's zero-width intervals used to make the model "best", and 2 of 2
// passes cleared 90%); the results page, History's row and the shared page say "Too little
// evidence" in the same words; with --allow-thin-evidence the gates pass with a warning.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import type { Id } from "../convex/_generated/dataModel";
import { runCli } from "./cli-runner";
import { demoCaller, runOn, signedInDemo, useE2E } from "./harness";

const e2e = useE2E();
const RUN_TIMEOUT_MS = 90_000;
/** A first visit: Vite serves the app's modules one by one, slowly on a busy machine. */
const PAGE_TIMEOUT_MS = 60_000;
const TEST_NAME = "Thin evidence check";
const THIN_REASON =
  "too little evidence: the jury judged only 1 persona × topic pair; it needs at least 4, with each answer judged at least twice";

describe("too little evidence", () => {
  test(
    "a one-topic, one-judge test: the CLI's gates fail saying so, results, History and the shared page say so, --allow-thin-evidence warns",
    { timeout: 4 * RUN_TIMEOUT_MS },
    async () => {
      // The demo user's own gateway key (the runs are free) and an API token for the runner.
      const demo = await demoCaller(e2e);
      await demo.action(api.apiKeys.save, { key: e2e.stack.gateway.settings.apiKey });
      const { token } = await demo.action(api.apiTokens.create, { name: "CI" });
      const models = await runOn(e2e, async (ctx) =>
        (await ctx.db.query("llmModels").take(3)).map((row) => row.modelId),
      );
      const [first, second, judge] = models as [string, string, string];

      const directory = mkdtempSync(path.join(tmpdir(), "modeljury-evidence-"));
      const config = path.join(directory, "ci.yaml");
      writeFileSync(
        config,
        [
          `name: ${TEST_NAME}`,
          "personas: [{ name: Agent, description: Support agent, systemPrompt: Be kind and brief. }]",
          "topics: [{ title: Refund, description: A refund question, prompt: Where is my refund? }]",
          `generatorModels: [${first}, ${second}]`,
          `evaluatorModels: [${judge}]`,
          "responsesPerTopic: 2",
          "checks: [{ id: c1, kind: notContains, value: zzqx-never-written, caseSensitive: false }]",
          "gates:",
          `  best: [${first}]`,
          `  minPassRate: { ${first}: 0.9 }`,
          "",
        ].join("\n"),
      );
      const env = { MODELJURY_URL: e2e.stack.siteUrl, MODELJURY_TOKEN: token };

      const failing = await runCli(["run", config, "--out", path.join(directory, "fail")], env);
      expect(failing.stderr).toContain(`FAIL ${first} is best: ${THIN_REASON}`);
      expect(failing.stderr).toMatch(
        new RegExp(
          `FAIL ${first.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} check pass rate ≥ 90\\.0%: too little evidence: .+ passed 2 of 2 checked answers \\(100\\.0%; 95% interval 34\\.2%–100\\.0%\\), whose lower bound is below 90\\.0%`,
        ),
      );
      expect(failing.stderr).toContain("2 gates failed.");
      expect(failing.code).toBe(1);
      const results = JSON.parse(readFileSync(path.join(directory, "fail", "results.json"), "utf8")) as {
        test: { testId: Id<"tests">; status: string };
        verdict: { kind: string; label: string; text: string };
        topGroup: string[];
      };
      expect(results.test.status).toBe("completed");
      expect(results.verdict).toMatchObject({ kind: "thin", label: "Too little evidence" });
      expect(results.topGroup).toEqual([]);
      expect(readFileSync(path.join(directory, "fail", "summary.md"), "utf8")).toContain(
        `❌ failed: ${first} is best — ${THIN_REASON}`,
      );
      const testId = results.test.testId;

      // The results page: no pick, the decision in the shared words.
      const owner = await signedInDemo(e2e);
      await owner.goto(`/dashboard/results/${testId}`);
      const certainty = owner.getByTestId("verdict-certainty");
      await certainty.waitFor({ timeout: PAGE_TIMEOUT_MS });
      expect(await certainty.textContent()).toBe("Too little evidence");
      expect(await owner.getByTestId("verdict-headline").textContent()).toBe(
        "Too little evidence to pick a model yet.",
      );
      expect(await owner.getByText("Our pick").count()).toBe(0);
      const summary = owner.getByTestId("jury-summary").locator("[data-slot=alert-title]");
      const summaryText = await summary.textContent();
      expect(summaryText).toBe(
        `Too little evidence to name a best model: ${THIN_REASON.slice("too little evidence: ".length)}.`,
      );

      // History: the same decision on the test's row (it said "Winner: …").
      await owner.goto("/dashboard/history");
      const row = owner.getByTestId("history-row").filter({ hasText: TEST_NAME });
      await row.getByTestId("jury-verdict").waitFor({ timeout: PAGE_TIMEOUT_MS });
      expect((await row.getByTestId("jury-verdict").textContent())?.trim()).toBe("Too little evidence");

      // The shared page: an anonymous visitor reads the same sentence.
      const { shareId } = await demo.mutation(api.shares.enable, { testId });
      const visitor = await (await e2e.newContext()).newPage();
      await visitor.goto(`/shared/${shareId}`);
      const shared = visitor.getByTestId("jury-summary").locator("[data-slot=alert-title]");
      await shared.waitFor({ timeout: PAGE_TIMEOUT_MS });
      expect(await shared.textContent()).toBe(summaryText);

      // Allowed thin evidence: the same gates warn and the run passes.
      const allowed = await runCli(
        ["run", config, "--out", path.join(directory, "allowed"), "--allow-thin-evidence"],
        env,
      );
      expect(allowed.stderr).toContain(`WARN ${first} is best: ${THIN_REASON} (allowed by --allow-thin-evidence)`);
      expect(allowed.stderr).toContain("All gates passed (2 on thin evidence).");
      expect(allowed.code).toBe(0);
    },
  );
});
