// ModelJury from code: the demo user saves their own gateway key and makes an API token on
// Account Settings (shown once), then the command-line runner imports a promptfoo configuration
// (a prompt file, OpenRouter provider ids, a vars list, a contains assertion, a rubric) and runs
// it against the started stack through /api/v1 without a terminal: plain progress lines, the
// test finishes, results.json / results.csv / summary.md are written. Passing gates exit 0; a
// failing cost gate exits 1 and says why. The token then shows its last use, and once revoked
// the runner is refused.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "./cli-runner";
import { runOn, signedInDemo, UI_TIMEOUT_MS, useE2E } from "./harness";

const e2e = useE2E();

describe("command-line runner", () => {
  test("a token made in the browser runs a promptfoo config to the end; gates pass with 0 and fail with 1 and a reason", async () => {
    const page = await signedInDemo(e2e);
    await page.goto("/dashboard/settings");

    // The user's own gateway key: the runs are free.
    const usage = page.getByRole("region", { name: "Usage" });
    await usage.getByTestId("own-key-note").waitFor();
    await usage.getByLabel("OpenRouter API key").fill(e2e.stack.gateway.settings.apiKey);
    await usage.getByRole("button", { name: "Save Key" }).click();
    await usage.getByTestId("masked-key").waitFor();

    // A token, shown once.
    const tokens = page.getByRole("region", { name: "API tokens" });
    await tokens.getByText("No tokens yet").waitFor();
    await tokens.getByLabel("Token name").fill("CI");
    await tokens.getByRole("button", { name: "Create Token" }).click();
    const token = (await tokens.getByTestId("new-api-token").textContent({ timeout: UI_TIMEOUT_MS }))?.trim() ?? "";
    expect(token).toMatch(/^mj_pat_/);
    await tokens.getByRole("list", { name: "API tokens" }).getByText("never used").waitFor();
    await tokens.getByRole("button", { name: "Done" }).click();
    expect(await tokens.getByTestId("new-api-token").count()).toBe(0);

    // A promptfoo configuration over the stack's catalog, with a file prompt beside it.
    const models = await runOn(e2e, async (ctx) => (await ctx.db.query("llmModels").take(3)).map((row) => row.modelId));
    const directory = mkdtempSync(path.join(tmpdir(), "modeljury-cli-"));
    writeFileSync(path.join(directory, "tagline.txt"), "Write a one-line tagline for a {{shop}}.");
    writeFileSync(
      path.join(directory, "promptfooconfig.yaml"),
      [
        "description: Shop taglines from CI",
        "prompts:",
        "  - file://tagline.txt",
        "providers:",
        `  - openrouter:${models[0]}`,
        `  - id: openrouter:${models[1]}`,
        "    label: second",
        "  - bedrock:some-model",
        "defaultTest:",
        "  assert:",
        "    - type: llm-rubric",
        "      value: Short and memorable",
        "    - type: javascript",
        "      value: output.length < 400",
        "tests:",
        "  - vars:",
        "      shop: [bike repair shop, bakery]",
        "    assert:",
        "      - type: similar",
        "        value: a tagline",
        "modeljury:",
        `  evaluatorModels: [${models[2]}]`,
        "",
      ].join("\n"),
    );
    const env = { MODELJURY_URL: e2e.stack.siteUrl, MODELJURY_TOKEN: token };
    const config = path.join(directory, "promptfooconfig.yaml");

    const passing = await runCli(
      ["run", config, "--out", path.join(directory, "pass"), "--max-cost", "50", "--min-pass-rate", `${models[0]}=0`],
      env,
    );
    expect(passing.stderr).toContain("Imported from promptfoo");
    expect(passing.stderr).toContain("1 prompt × 2 test cases → 2 topics");
    expect(passing.stderr).toContain("✗ provider bedrock:some-model: no model with this id in the ModelJury catalog");
    expect(passing.stderr).toContain("✗ test 1 assert similar: ModelJury has no check of this kind");
    // No terminal: plain, timestamped progress lines, ending at 100%.
    expect(passing.stderr).toMatch(/^\d{4}-\d\d-\d\dT\S+ \[[#-]+\]\s+\d+%/m);
    expect(passing.stderr).toMatch(/\[#+\] 100% /);
    expect(passing.stderr).not.toContain("\r");
    expect(passing.stderr).toContain(`PASS ${models[0]} check pass rate ≥ 0.0%`);
    expect(passing.stderr).toContain("All gates passed.");
    expect(passing.code).toBe(0);

    const results = JSON.parse(readFileSync(path.join(directory, "pass", "results.json"), "utf8")) as {
      test: { status: string; chargedCents: number; usesOwnKey: boolean };
      rankings: { modelId: string; rank: unknown }[];
      checks: { models: { modelId: string; overall: { answers: number } }[] } | null;
    };
    expect(results.test).toMatchObject({ status: "completed", chargedCents: 0, usesOwnKey: true });
    expect(results.rankings.map((ranking) => ranking.modelId).sort()).toEqual([models[0], models[1]].sort());
    expect(results.checks?.models[0].overall.answers).toBeGreaterThan(0);
    const csv = readFileSync(path.join(directory, "pass", "results.csv"), "utf8")
      .trim()
      .split("\n");
    expect(csv[0]).toMatch(/^model_id,model_name,average_score,/);
    expect(csv).toHaveLength(3);
    const summary = readFileSync(path.join(directory, "pass", "summary.md"), "utf8");
    expect(summary).toContain("## ModelJury: Shop taglines from CI");
    expect(summary).toContain("**Status:** completed");
    expect(summary).toMatch(
      /\| # \| Model \| Score \(0-10\) \| 95% interval \| Rank range \| Top group \| Checks passed \|/,
    );
    expect(summary).toContain("### Gates");
    expect(summary).toContain("✅ passed");

    const failing = await runCli(["run", config, "--out", path.join(directory, "fail"), "--max-cost", "0.000001"], env);
    expect(failing.stderr).toMatch(/FAIL cost ≤ \$0\.0000: the test cost \$\d+\.\d+ \(gateway\)/);
    expect(failing.stderr).toContain("1 gate failed.");
    expect(failing.code).toBe(1);
    expect(readFileSync(path.join(directory, "fail", "summary.md"), "utf8")).toContain("❌ failed: cost");

    // The token shows its use; revoked, the runner is refused at once.
    await tokens
      .getByRole("list", { name: "API tokens" })
      .getByText(/last used/)
      .waitFor();
    await tokens.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
    await tokens.getByText("No tokens yet").waitFor();
    const refused = await runCli(["run", config, "--out", path.join(directory, "refused")], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("Missing, unknown or revoked access token.");
  });
});
