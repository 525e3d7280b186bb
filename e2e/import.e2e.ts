// The command-line runner from CI, with no browser: the offline stack is started on free ports,
// the demo user (on their own gateway key, so runs are free) gets an API token, and the CLI runs
// as a CI job would against a CSV-driven promptfoo config. `modeljury import --dry-run` previews
// it with no server and with one (then priced), and refuses a config that would send an
// unrendered file:// before anything is created; `modeljury run` refuses a gate on a model the
// test does not run before creating the test, then runs the config with a passing and a failing
// gate: exit 1, the ranking table, `--format json` on stdout and a JUnit file with one case per gate.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import type { MutationCtx } from "../convex/_generated/server";
import { startStack, type RunningStack } from "../dev/stack";
import { runCli } from "./cli-runner";
import { appServerOptions } from "./harness";

const RUN_TIMEOUT_MS = 100_000;

let stack: RunningStack;

beforeAll(async () => {
  stack = await startStack({
    ports: { app: 0, backend: 0, site: 0, gateway: 0, stripe: 0 },
    seed: true,
    latencyScale: 0.05,
    quiet: true,
    watch: false,
    ...appServerOptions(),
  });
});

afterAll(async () => {
  await stack?.close();
});

async function runOn<T>(fn: (ctx: MutationCtx) => Promise<T>): Promise<T> {
  return (await stack.backend.t.run((ctx) => fn(ctx as unknown as MutationCtx) as never)) as T;
}

/** The CLI as CI runs it, with this journey's own kill timer (longer than the runner's default). */
const cli = (args: string[], env?: Record<string, string>) => runCli(args, env, RUN_TIMEOUT_MS);

/** The demo user with their own gateway key and a fresh API token. */
async function demoToken(): Promise<string> {
  const user = await runOn(
    async (ctx) =>
      (await ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", stack.demo.email))
        .unique())!,
  );
  const sessionId = await runOn((ctx) =>
    ctx.db.insert("authSessions", { userId: user._id, expirationTime: Date.now() + 3_600_000 }),
  );
  const demo = stack.backend.t.withIdentity({ subject: `${user._id}|${sessionId}`, email: stack.demo.email });
  await demo.action(api.apiKeys.save, { key: stack.gateway.settings.apiKey });
  const { token } = await demo.action(api.apiTokens.create, { name: "CI" });
  return token;
}

const testCount = () => runOn(async (ctx) => (await ctx.db.query("tests").collect()).length);

describe("modeljury import --dry-run and run, from CI", () => {
  test(
    "a CSV-driven promptfoo config: previewed without and with a server, refused before payment, run with a passing and a failing gate",
    { timeout: 300_000 },
    async () => {
      const models = await runOn(async (ctx) => (await ctx.db.query("llmModels").take(3)).map((row) => row.modelId));
      const directory = mkdtempSync(path.join(tmpdir(), "modeljury-import-"));
      writeFileSync(path.join(directory, "tagline.txt"), "Write a one-line tagline for a {{ shop }} in {{ city }}.");
      writeFileSync(
        path.join(directory, "shops.csv"),
        [
          "shop,city,__expected",
          "bike repair shop,Utrecht,icontains:bike",
          "bakery,Lyon,llm-rubric:mentions bread",
        ].join("\n") + "\n",
      );
      const config = path.join(directory, "promptfooconfig.yaml");
      writeFileSync(
        config,
        [
          "description: Shop taglines from a CSV",
          "prompts:",
          "  - file://./tagline.txt",
          "providers:",
          `  - openrouter:${models[0]}`,
          `  - openrouter:${models[1]}`,
          "tests: file://shops.csv",
          "modeljury:",
          `  evaluatorModels: [${models[2]}]`,
          "",
        ].join("\n"),
      );

      // A preview with no server: what would run, rendered; no price.
      const offline = await cli(["import", config, "--dry-run"]);
      expect(offline.code).toBe(0);
      expect(offline.stdout).toContain("1 prompt × 2 test cases → 2 topics");
      expect(offline.stdout).toContain("Write a one-line tagline for a bike repair shop in Utrecht.");
      expect(offline.stdout).toContain("Write a one-line tagline for a bakery in Lyon.");
      expect(offline.stdout).toContain('check-1 contains {"value":"bike","caseSensitive":false} (topic topic-1)');
      expect(offline.stdout).toContain("mentions bread (topic topic-2)");
      expect(offline.stdout).toContain(`Evaluator models: ${models[2]}`);
      expect(offline.stdout).toContain("no price: set MODELJURY_URL and MODELJURY_TOKEN");
      expect(offline.stdout).toContain("Everything can run.");
      expect(offline.stdout).not.toMatch(/\{\{|file:\/\//);

      const token = await demoToken();
      const env = { MODELJURY_URL: stack.siteUrl, MODELJURY_TOKEN: token };
      const before = await testCount();

      // With a server: matched against its catalog and priced; nothing is created.
      const priced = await cli(["import", config, "--dry-run"], env);
      expect(priced.code).toBe(0);
      expect(priced.stdout).toMatch(/Price: \$\d+\.\d\d \(runs on your own gateway key: not charged\)/);
      expect(await testCount()).toBe(before);

      // A variable file that is not there: refused with the CSV's line, before anything is sent.
      const broken = path.join(directory, "broken.yaml");
      writeFileSync(broken, readFileSync(config, "utf8").replace("file://shops.csv", "file://broken.csv"));
      writeFileSync(path.join(directory, "broken.csv"), "shop,city\nfile://shops/*.txt,Oslo\n");
      const refusedImport = await cli(["import", broken, "--dry-run"], env);
      expect(refusedImport.code).toBe(2);
      expect(refusedImport.stdout).toContain("✗ broken.csv:2: no file matches the variable shop (file://shops/*.txt)");
      expect(refusedImport.stdout).toContain("fix: Fix the pattern");
      const refusedRun = await cli(["run", broken, "--out", path.join(directory, "broken")], env);
      expect(refusedRun.code).toBe(2);
      expect(refusedRun.stderr).toContain("Nothing was created or charged");

      // A gate on a model the test does not run: refused before the test is created.
      const badGate = await cli(
        ["run", config, "--top-group", "nobody/none", "--out", path.join(directory, "bad")],
        env,
      );
      expect(badGate.code).toBe(2);
      expect(badGate.stderr).toContain(
        `the gate "nobody/none in the top group" names nobody/none, which is not one of the test's generator models (${models[0]}, ${models[1]})`,
      );
      const badCheck = await cli(["run", config, "--min-pass-rate", `${models[0]}@check-9=0.5`], env);
      expect(badCheck.code).toBe(2);
      expect(badCheck.stderr).toContain("names the check check-9, which the test does not have");
      expect(await testCount()).toBe(before);

      // The run: one gate passes, one fails; exit 1, JSON on stdout, JUnit with a case per gate.
      const junit = path.join(directory, "junit.xml");
      const run = await cli(
        [
          "run",
          config,
          "--out",
          path.join(directory, "results"),
          "--min-pass-rate",
          `${models[0]}=0`,
          "--max-cost",
          "0.000001",
          "--format",
          "json",
          "--junit",
          junit,
          "--poll",
          "1",
        ],
        env,
      );
      expect(run.stderr).toContain(`PASS ${models[0]} check pass rate ≥ 0.0%`);
      expect(run.stderr).toMatch(/FAIL cost ≤ \$0\.0000: the test cost \$\d+\.\d+ \(gateway\)/);
      expect(run.stderr).toContain("1 gate failed.");
      expect(run.code).toBe(1);
      expect(await testCount()).toBe(before + 1);
      const report = JSON.parse(run.stdout) as {
        status: string;
        final: boolean;
        passed: boolean;
        gates: { gate: string; passed: boolean }[];
        results: { rankings: { modelId: string; meanScore: unknown }[]; verdict: { kind: string } | null };
      };
      expect(report).toMatchObject({ status: "completed", final: true, passed: false });
      expect(report.gates.map((gate) => gate.passed)).toEqual([true, false]);
      // Read once the figures were final: the jury's statistics are in, every model has its score,
      // and the verdict is the jury's (2 topics and 1 judge are too little evidence for a rank).
      expect(report.results.rankings.map((ranking) => ranking.modelId).sort()).toEqual([models[0], models[1]].sort());
      expect(report.results.rankings.every((ranking) => ranking.meanScore !== null)).toBe(true);
      expect(report.results.verdict?.kind).toBe("thin");
      const xml = readFileSync(junit, "utf8");
      expect(xml).toContain('<testsuite name="ModelJury: Shop taglines from a CSV" tests="2" failures="1" errors="0">');
      expect(xml.match(/<testcase /g)).toHaveLength(2);
      expect(xml).toContain(`<testcase classname="modeljury.gates" name="${models[0]} check pass rate ≥ 0.0%">`);
      expect(xml).toMatch(/<failure message="the test cost \$\d+\.\d+ \(gateway\)" type="gate">/);

      // Text format: the ranking table on stdout.
      const table = await cli(["run", config, "--out", path.join(directory, "table"), "--poll", "1"], env);
      expect(table.code).toBe(0);
      expect(table.stdout.split("\n")[0]).toMatch(/^#\s+Model\s+Score\s+95% interval\s+Ranks\s+Top\s+Checks passed$/);
      expect(table.stdout.trim().split("\n")).toHaveLength(4);
    },
  );
});
