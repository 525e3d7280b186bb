#!/usr/bin/env -S node --import tsx
// The ModelJury command-line runner: `modeljury run CONFIG` starts a test through the HTTP API,
// follows it until its figures are final, writes its results (JSON, CSV, Markdown, optionally
// JUnit) and fails the build when a gate fails; `modeljury import CONFIG --dry-run` shows what a
// run would send, with no server needed. CONFIG is a ModelJury configuration or a promptfoo
// configuration (YAML or JSON).
//
//   MODELJURY_URL=https://<deployment>.convex.site MODELJURY_TOKEN=mj_pat_… npx modeljury run ci.yaml
//
// Exit codes: 0 finished and every gate passed (import: everything can run); 1 a gate failed;
// 2 the configuration or the request was refused; 3 the test failed, was cancelled or timed out.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError, clientOf, EXIT, type Client, type Json } from "./api";
import {
  evaluatorIdsOf,
  generatorIdsOf,
  loadConfiguration,
  problemLines,
  type LoadedConfiguration,
} from "./configuration";
import { followToResults } from "./follow";
import { checkGateVerdicts, gateProblems, readGates, type ReadGates } from "./gates";
import { checkGates, resultsCsv, resultsMarkdown, type ApiStatus, type GateVerdict } from "./report";
import { jsonReport, junitXml, rankingTable } from "./reporters";

const USAGE = `Usage: modeljury run CONFIG [options]
       modeljury import CONFIG --dry-run [options]

CONFIG is a ModelJury configuration or a promptfoo configuration, YAML or JSON.
"import --dry-run" prints what a run would send (topics, personas, models, checks, evaluator)
and what is left out, without creating anything; it needs no server or token, and adds the
price when MODELJURY_URL and MODELJURY_TOKEN are set. It exits 0 when everything can run.

Options:
  --url URL               the deployment's site address (or MODELJURY_URL)
  --token TOKEN           a personal access token (or MODELJURY_TOKEN)
  --out DIR               where results.json, results.csv and summary.md go (default modeljury-results)
  --format text|json      text: a ranking table on stdout; json: the results and gates as JSON on stdout
  --junit FILE            also write the gates as JUnit XML (one test case per gate)
  --generator MODEL       add a generator model (repeatable)
  --evaluator MODEL       add an evaluator model (repeatable)
  --best MODEL            gate: the jury names MODEL best, its 95% interval above all (repeatable)
  --top-group MODEL       gate: MODEL must be in the top tie group (repeatable)
  --max-rank M=N          gate: model M ranks N or better at worst within the 95% intervals (repeatable)
  --min-pass-rate M=RATE  gate: model M's check pass rate at least RATE (0-1 or a percentage, repeatable);
                          M@CHECK=RATE for one check's pass rate
  --max-cost USD          gate: the test costs at most USD
  --allow-thin-evidence   a gate resting on too little evidence warns instead of failing
  --poll SECONDS          how often to ask for progress (default 3)
  --timeout MINUTES       give up waiting after this long (default 60)
  --dry-run               (import) show what would run; nothing is created
  -h, --help              this help

Gates may also be written in the configuration:
  gates: { best: [openai/gpt-4o], topGroup: [openai/gpt-4o], maxRank: { openai/gpt-4o: 2 },
           minPassRate: { openai/gpt-4o: 0.9 }, maxCostUsd: 2 }
A gate passes only when the 95% intervals settle it: a pass rate's lower bound must reach RATE.
One resting on too little evidence (fewer than 4 persona × topic pairs, one judge call per
answer, or too few checked answers) fails saying so, unless --allow-thin-evidence.
A promptfoo configuration may carry ModelJury settings under "modeljury:" (evaluatorModels, gates, …).
`;

const tty = process.stderr.isTTY === true;

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

function out(text: string): void {
  process.stdout.write(text);
}

const OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  out: { type: "string", default: "modeljury-results" },
  format: { type: "string", default: "text" },
  junit: { type: "string" },
  generator: { type: "string", multiple: true, default: [] },
  evaluator: { type: "string", multiple: true, default: [] },
  best: { type: "string", multiple: true, default: [] },
  "top-group": { type: "string", multiple: true, default: [] },
  "max-rank": { type: "string", multiple: true, default: [] },
  "allow-thin-evidence": { type: "boolean", default: false },
  "min-pass-rate": { type: "string", multiple: true, default: [] },
  "max-cost": { type: "string" },
  poll: { type: "string", default: "3" },
  timeout: { type: "string", default: "60" },
  "dry-run": { type: "boolean", default: false },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsConfig["options"];

interface Values {
  url?: string;
  token?: string;
  out: string;
  format: string;
  junit?: string;
  generator: string[];
  evaluator: string[];
  best: string[];
  "top-group": string[];
  "max-rank": string[];
  "allow-thin-evidence": boolean;
  "min-pass-rate": string[];
  "max-cost"?: string;
  poll: string;
  timeout: string;
  "dry-run": boolean;
  help?: boolean;
}

interface Prepared {
  loaded: LoadedConfiguration;
  gates: ReadGates;
  problems: LoadedConfiguration["problems"];
}

/** The configuration and gates, and every problem found before anything is sent. */
function prepare(file: string, catalogIds: readonly string[] | null, values: Values): Prepared {
  const loaded = loadConfiguration(file, catalogIds, { generators: values.generator, evaluators: values.evaluator });
  const name = path.basename(file);
  const gates = readGates(
    loaded.gates,
    {
      best: values.best,
      topGroup: values["top-group"],
      maxRank: values["max-rank"],
      minPassRate: values["min-pass-rate"],
      maxCost: values["max-cost"],
    },
    name,
  );
  const problems = [
    ...loaded.problems,
    ...gates.problems,
    ...gateProblems(gates, loaded.configuration, generatorIdsOf(loaded.configuration), name),
  ];
  return { loaded, gates, problems };
}

function clientFrom(values: Values, required: boolean): Client | null {
  const url = values.url ?? process.env.MODELJURY_URL;
  const token = values.token ?? process.env.MODELJURY_TOKEN;
  if (url && token) return clientOf(url, token);
  if (!required) return null;
  if (!url) throw new CliError("Set MODELJURY_URL (or --url) to the deployment's site address.", EXIT.refused);
  throw new CliError("Set MODELJURY_TOKEN (or --token) to a personal access token.", EXIT.refused);
}

async function catalogOf(client: Client | null): Promise<string[] | null> {
  if (client === null) return null;
  const { models } = await client.request<{ models: { id: string }[] }>("GET", "/models");
  return models.map((model) => model.id);
}

function importSummary(prepared: Prepared, file: string): string[] {
  const { promptfoo } = prepared.loaded;
  if (!promptfoo) return [];
  const lines = [`Imported from promptfoo (${file}):`, ...promptfoo.imported.map((line) => `  ✓ ${line}`)];
  if (promptfoo.notImported.length > 0) {
    lines.push("Not imported:", ...promptfoo.notImported.map((item) => `  ✗ ${item.item}: ${item.reason}`));
  }
  return lines;
}

function refusalOf(prepared: Prepared): CliError {
  return new CliError(
    [
      "Nothing was created or charged: the configuration cannot run as written.",
      ...problemLines(prepared.problems),
    ].join("\n"),
    EXIT.refused,
  );
}

// ── import --dry-run ──

function preview(configuration: Json, prepared: Prepared): string[] {
  const lines: string[] = [];
  const list = (value: unknown) => (Array.isArray(value) ? value : []) as Json[];
  lines.push(`Test: ${String(configuration.name ?? "")}`);
  lines.push(`Generator models: ${generatorIdsOf(configuration).join(", ") || "none"}`);
  lines.push(`Evaluator models: ${evaluatorIdsOf(configuration).join(", ") || "none"}`);
  lines.push(`Responses per topic: ${String(configuration.responsesPerTopic ?? 2)}`);
  if (configuration.repeats !== undefined) lines.push(`Repeats: ${String(configuration.repeats)}`);
  const personas = list(configuration.personas);
  lines.push(`Personas (${personas.length}):`);
  for (const persona of personas)
    lines.push(`  - ${String(persona.name)}: ${oneLine(String(persona.systemPrompt ?? ""), 100)}`);
  const topics = list(configuration.topics);
  lines.push(`Topics (${topics.length}):`);
  for (const topic of topics) {
    lines.push(`  - ${String(topic.id ?? "")} ${String(topic.title)}`);
    lines.push(`      ${oneLine(String(topic.prompt), 160)}`);
  }
  const checks = list(configuration.checks);
  lines.push(`Checks (${checks.length}):`);
  for (const check of checks) {
    const { id, kind, topicId, ...rest } = check;
    lines.push(
      `  - ${String(id)} ${String(kind)} ${JSON.stringify(rest)}${topicId ? ` (topic ${String(topicId)})` : " (every topic)"}`,
    );
  }
  const rubrics = prepared.loaded.promptfoo?.rubrics ?? [];
  if (rubrics.length > 0) {
    lines.push(`Rubrics (${rubrics.length}):`);
    for (const rubric of rubrics) {
      lines.push(
        `  - ${oneLine(rubric.text, 160)} (${rubric.topicIds.length === 0 ? "every topic" : `topic ${rubric.topicIds.join(", ")}`})`,
      );
    }
  }
  const { gates, checkGates } = prepared.gates;
  const gateLines = [
    ...(gates.best ?? []).map((model) => `${model} is best`),
    ...gates.topGroup.map((model) => `${model} in the top group`),
    ...Object.entries(gates.maxRank ?? {}).map(([model, rank]) => `${model} ranks ${rank} or better`),
    ...Object.entries(gates.minPassRate).map(
      ([model, rate]) => `${model} check pass rate ≥ ${(rate * 100).toFixed(1)}%`,
    ),
    ...checkGates.map((gate) => `${gate.modelId} check ${gate.checkId} pass rate ≥ ${(gate.rate * 100).toFixed(1)}%`),
    ...(gates.maxCostUsd === undefined ? [] : [`cost ≤ $${gates.maxCostUsd}`]),
  ];
  if (gateLines.length > 0) lines.push(`Gates (${gateLines.length}):`, ...gateLines.map((line) => `  - ${line}`));
  return lines;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

async function importCommand(file: string, values: Values): Promise<number> {
  const client = clientFrom(values, false);
  const prepared = prepare(file, await catalogOf(client), values);
  const { configuration } = prepared.loaded;
  const lines = [...importSummary(prepared, file), "", "Would run:", ...preview(configuration, prepared)];
  if (client === null)
    lines.push("", "Models not checked against the catalog and no price: set MODELJURY_URL and MODELJURY_TOKEN.");
  let price: Json | null = null;
  if (client !== null && prepared.problems.length === 0) {
    try {
      price = await client.request<Json>("POST", "/quote", { configuration });
      lines.push(
        "",
        `Price: $${(Number(price.priceCents) / 100).toFixed(2)}${price.usesOwnKey ? " (runs on your own gateway key: not charged)" : ""}`,
      );
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      prepared.problems.push({ file: path.basename(file), reason: error.message, fix: "Fix the fields named above." });
    }
  }
  if (prepared.problems.length > 0)
    lines.push("", "Would be refused (nothing is created or charged):", ...problemLines(prepared.problems));
  else lines.push("", "Everything can run.");
  if (values.format === "json") {
    out(
      JSON.stringify(
        {
          ok: prepared.problems.length === 0,
          configuration,
          gates: { ...prepared.gates.gates, checks: prepared.gates.checkGates },
          imported: prepared.loaded.promptfoo?.imported ?? [],
          notImported: prepared.loaded.promptfoo?.notImported ?? [],
          rubrics: prepared.loaded.promptfoo?.rubrics ?? [],
          problems: prepared.problems,
          ...(price ? { priceCents: price.priceCents } : {}),
        },
        null,
        2,
      ) + "\n",
    );
    for (const line of lines) say(line);
  } else out(lines.join("\n") + "\n");
  return prepared.problems.length === 0 ? EXIT.ok : EXIT.refused;
}

// ── run ──

async function runCommand(file: string, values: Values): Promise<number> {
  const client = clientFrom(values, true)!;
  const prepared = prepare(file, await catalogOf(client), values);
  for (const line of importSummary(prepared, file)) say(line);
  if (prepared.problems.length > 0) throw refusalOf(prepared);
  const { configuration } = prepared.loaded;

  const created = await client.request<ApiStatus & { paymentRequired: boolean }>("POST", "/tests", { configuration });
  say(
    `Created test ${created.testId} "${created.name}" — price $${(created.priceCents / 100).toFixed(2)}${created.usesOwnKey ? " (runs on your own gateway key: not charged)" : ""}`,
  );
  const start = await client.request<ApiStatus & { started: boolean; checkoutUrl?: string }>(
    "POST",
    `/tests/${created.testId}/start`,
  );
  if (!start.started && start.checkoutUrl) {
    say(`This test must be paid before it starts. Open this address to pay:\n  ${start.checkoutUrl}`);
  }
  const { status: final, results } = await followToResults(client, created.testId, {
    pollMs: Number(values.poll) * 1000,
    timeoutMs: Number(values.timeout) * 60_000,
    say,
    tty,
  });

  const verdicts: GateVerdict[] =
    final.status === "completed"
      ? [
          ...checkGates(results, prepared.gates.gates, { allowThinEvidence: values["allow-thin-evidence"] }),
          ...checkGateVerdicts(results, prepared.gates.checkGates, {
            allowThinEvidence: values["allow-thin-evidence"],
          }),
        ]
      : [];
  const outDir = path.resolve(values.out);
  mkdirSync(outDir, { recursive: true });
  const markdown = resultsMarkdown(results, verdicts);
  writeFileSync(path.join(outDir, "results.json"), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(path.join(outDir, "results.csv"), resultsCsv(results));
  writeFileSync(path.join(outDir, "summary.md"), markdown);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);
  say(`Results written to ${outDir} (results.json, results.csv, summary.md)`);
  if (values.junit) {
    const junit = path.resolve(values.junit);
    mkdirSync(path.dirname(junit), { recursive: true });
    writeFileSync(junit, junitXml(results, verdicts));
    say(`JUnit report written to ${junit}`);
  }
  if (values.format === "json") out(jsonReport(results, verdicts));
  else if (results.rankings.length > 0) out(rankingTable(results));

  if (final.status !== "completed") {
    say(`The test ${final.status}${final.error ? `: ${final.error}` : ""}.`);
    return EXIT.testFailed;
  }
  for (const verdict of verdicts) say(gateLine(verdict));
  const failed = verdicts.filter((verdict) => !verdict.passed);
  if (failed.length > 0) {
    say(`${failed.length} gate${failed.length === 1 ? "" : "s"} failed.`);
    return EXIT.gateFailed;
  }
  const warned = verdicts.filter((verdict) => verdict.warning).length;
  say(verdicts.length > 0 ? `All gates passed${warned > 0 ? ` (${warned} on thin evidence)` : ""}.` : "Finished.");
  return EXIT.ok;
}

/** "PASS gate: reason", "FAIL …", or "WARN …" for a gate passed on thin evidence by --allow-thin-evidence. */
function gateLine(verdict: GateVerdict): string {
  if (verdict.warning) return `WARN ${verdict.gate}: ${verdict.reason} (allowed by --allow-thin-evidence)`;
  return `${verdict.passed ? "PASS" : "FAIL"} ${verdict.gate}: ${verdict.reason}`;
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const values = parsed.values as Values;
  const { positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return values.help ? EXIT.ok : EXIT.refused;
  }
  const [command, file, ...rest] = positionals;
  if (!["run", "import"].includes(command) || !file || rest.length > 0) {
    process.stdout.write(USAGE);
    return EXIT.refused;
  }
  if (values.format !== "text" && values.format !== "json") {
    throw new CliError(`--format takes text or json, got "${values.format}".`, EXIT.refused);
  }
  return command === "import" ? await importCommand(file, values) : await runCommand(file, values);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof CliError ? error.exitCode : EXIT.refused);
  },
);
