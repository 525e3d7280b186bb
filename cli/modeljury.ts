#!/usr/bin/env -S node --import tsx
// The ModelJury command-line runner: `modeljury run CONFIG` starts a test through the HTTP API,
// follows it to the end, writes its results (JSON, CSV, Markdown) and fails the build when a
// gate fails. CONFIG is a ModelJury configuration or a promptfoo configuration (YAML or JSON).
//
//   MODELJURY_URL=https://<deployment>.convex.site MODELJURY_TOKEN=mj_pat_… npx modeljury run ci.yaml
//
// Exit codes: 0 finished and every gate passed; 1 a gate failed; 2 the configuration or the
// request was refused; 3 the test failed, was cancelled or timed out.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import { importPromptfoo, isPromptfooConfig } from "../convex/lib/promptfoo";
import {
  checkGates,
  progressBar,
  resultsCsv,
  resultsMarkdown,
  type ApiResults,
  type ApiStatus,
  type Gates,
  type GateVerdict,
} from "./report";

const USAGE = `Usage: modeljury run CONFIG [options]

CONFIG is a ModelJury configuration or a promptfoo configuration, YAML or JSON.

Options:
  --url URL               the deployment's site address (or MODELJURY_URL)
  --token TOKEN           a personal access token (or MODELJURY_TOKEN)
  --out DIR               where results.json, results.csv and summary.md go (default modeljury-results)
  --generator MODEL       add a generator model (repeatable)
  --evaluator MODEL       add an evaluator model (repeatable)
  --best MODEL            gate: the jury names MODEL best, its 95% interval above all (repeatable)
  --top-group MODEL       gate: MODEL must be in the top tie group (repeatable)
  --max-rank M=N          gate: model M ranks N or better at worst within the 95% intervals (repeatable)
  --min-pass-rate M=RATE  gate: model M's check pass rate at least RATE (0-1 or a percentage, repeatable)
  --max-cost USD          gate: the test costs at most USD
  --allow-thin-evidence   a gate resting on too little evidence warns instead of failing
  --poll SECONDS          how often to ask for progress (default 3)
  --timeout MINUTES       give up waiting after this long (default 60)
  -h, --help              this help

Gates may also be written in the configuration:
  gates: { best: [openai/gpt-4o], topGroup: [openai/gpt-4o], maxRank: { openai/gpt-4o: 2 },
           minPassRate: { openai/gpt-4o: 0.9 }, maxCostUsd: 2 }
A gate passes only when the 95% intervals settle it: a pass rate's lower bound must reach RATE.
One resting on too little evidence (fewer than 4 persona × topic pairs, one judge call per
answer, or too few checked answers) fails saying so, unless --allow-thin-evidence.
A promptfoo configuration may carry ModelJury settings under "modeljury:" (evaluatorModels, gates, …).
`;

const EXIT = { ok: 0, gateFailed: 1, refused: 2, testFailed: 3 } as const;

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ── Output ──

const tty = process.stderr.isTTY === true;

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

// ── The API ──

interface Client {
  request<T>(method: "GET" | "POST", route: string, body?: unknown): Promise<T>;
  base: string;
}

function clientOf(url: string, token: string): Client {
  const base = url.replace(/\/+$/, "");
  return {
    base,
    async request<T>(method: "GET" | "POST", route: string, body?: unknown): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        let response: Response;
        try {
          response = await fetch(`${base}/api/v1${route}`, {
            method,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
        } catch (error) {
          if (attempt < 3) {
            await sleep(1000 * attempt);
            continue;
          }
          throw new CliError(`Could not reach ${base}: ${String(error)}`, EXIT.refused);
        }
        if (response.status === 429 && attempt < 5) {
          await sleep(Number(response.headers.get("retry-after") ?? "5") * 1000);
          continue;
        }
        const text = await response.text();
        let data: unknown;
        try {
          data = text ? JSON.parse(text) : null;
        } catch {
          data = null;
        }
        if (!response.ok) {
          const error = isObject(data) && isObject(data.error) ? data.error : {};
          const problems = Array.isArray(error.problems)
            ? (error.problems as { field: string; message: string }[])
                .map((problem) => `  - ${problem.field}: ${problem.message}`)
                .join("\n")
            : "";
          const message = typeof error.message === "string" ? error.message : `HTTP ${response.status}: ${text}`;
          throw new CliError(
            `${method} ${route} refused (${response.status}): ${message}${problems ? `\n${problems}` : ""}`,
            EXIT.refused,
          );
        }
        return data as T;
      }
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ── The configuration ──

/** Files a configuration names with file://, read relative to it (prompt functions are not read). */
function referencedFiles(text: string, directory: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const match of text.matchAll(/file:\/\/([^\s'",\]}]+)/g)) {
    const name = match[1].replace(/:[A-Za-z_]\w*$/, "");
    const full = path.resolve(directory, name);
    if (/\.(js|cjs|mjs|ts|py)$/.test(name) || !existsSync(full)) continue;
    files[name] = readFileSync(full, "utf8");
  }
  return files;
}

function gatesOf(
  raw: unknown,
  flags: { best: string[]; topGroup: string[]; maxRank: string[]; minPassRate: string[]; maxCost?: string },
): Gates {
  const fromFile = isObject(raw) ? raw : {};
  const list = (value: unknown) =>
    Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
  const gates: Gates = {
    best: [...list(fromFile.best), ...flags.best],
    topGroup: [...list(fromFile.topGroup), ...flags.topGroup],
    maxRank: maxRanksOf(fromFile.maxRank, flags.maxRank),
    minPassRate: {},
  };
  const rate = (model: string, value: unknown) => {
    let number = typeof value === "number" ? value : Number(String(value).replace(/%$/, ""));
    if (String(value).endsWith("%") || number > 1) number /= 100;
    if (!Number.isFinite(number) || number < 0 || number > 1) {
      throw new CliError(`The pass rate for ${model} must be from 0 to 1 (or 0% to 100%).`, EXIT.refused);
    }
    gates.minPassRate[model] = number;
  };
  if (isObject(fromFile.minPassRate))
    for (const [model, value] of Object.entries(fromFile.minPassRate)) rate(model, value);
  for (const flag of flags.minPassRate) {
    const at = flag.lastIndexOf("=");
    if (at <= 0) throw new CliError(`--min-pass-rate takes MODEL=RATE, got "${flag}".`, EXIT.refused);
    rate(flag.slice(0, at), flag.slice(at + 1));
  }
  const maxCost = flags.maxCost ?? fromFile.maxCostUsd;
  if (maxCost !== undefined) {
    const number = Number(maxCost);
    if (!Number.isFinite(number) || number < 0)
      throw new CliError("--max-cost takes dollars, e.g. 2.50.", EXIT.refused);
    gates.maxCostUsd = number;
  }
  return gates;
}

/** --max-rank M=N flags and a configuration's maxRank: { M: N }; N a whole number from 1. */
function maxRanksOf(fromFile: unknown, flags: string[]): Record<string, number> {
  const ranks: Record<string, number> = {};
  const rank = (model: string, value: unknown) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1)
      throw new CliError(`The rank for ${model} must be a whole number from 1.`, EXIT.refused);
    ranks[model] = number;
  };
  if (isObject(fromFile)) for (const [model, value] of Object.entries(fromFile)) rank(model, value);
  for (const flag of flags) {
    const at = flag.lastIndexOf("=");
    if (at <= 0) throw new CliError(`--max-rank takes MODEL=N, got "${flag}".`, EXIT.refused);
    rank(flag.slice(0, at), flag.slice(at + 1));
  }
  return ranks;
}

async function configurationOf(
  file: string,
  client: Client,
  flags: { generators: string[]; evaluators: string[] },
): Promise<{ configuration: Json; gates: unknown }> {
  if (!existsSync(file)) throw new CliError(`No such file: ${file}`, EXIT.refused);
  const text = readFileSync(file, "utf8");
  let parsed: unknown;
  try {
    parsed = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new CliError(
      `${file} is not valid ${/\.json$/i.test(file) ? "JSON" : "YAML"}: ${String(error)}`,
      EXIT.refused,
    );
  }
  if (!isObject(parsed)) throw new CliError(`${file} does not hold a configuration object.`, EXIT.refused);

  let configuration: Json;
  let gates: unknown = parsed.gates;
  if (isPromptfooConfig(parsed)) {
    const { models } = await client.request<{ models: { id: string }[] }>("GET", "/models");
    const extra = isObject(parsed.modeljury) ? parsed.modeljury : {};
    const { modeljury: _ignored, ...promptfoo } = parsed;
    const result = importPromptfoo(promptfoo, {
      catalogIds: models.map((model) => model.id),
      files: referencedFiles(text, path.dirname(file)),
    });
    say(`Imported from promptfoo (${file}):`);
    for (const line of result.imported) say(`  ✓ ${line}`);
    if (result.notImported.length > 0) {
      say("Not imported:");
      for (const item of result.notImported) say(`  ✗ ${item.item}: ${item.reason}`);
    }
    const { gates: extraGates, ...settings } = extra;
    gates = extraGates;
    configuration = { ...result.configuration, ...settings };
  } else {
    const { gates: _gates, ...rest } = parsed;
    configuration = rest;
  }
  const models = (key: string, added: string[]) => {
    const listed = Array.isArray(configuration[key]) ? (configuration[key] as unknown[]) : [];
    if (added.length > 0) configuration[key] = [...listed, ...added];
  };
  models("generatorModels", flags.generators);
  models("evaluatorModels", flags.evaluators);
  return { configuration, gates };
}

// ── Running ──

const FINISHED = new Set(["completed", "failed", "cancelled"]);

async function follow(client: Client, testId: string, pollMs: number, timeoutMs: number): Promise<ApiStatus> {
  const started = Date.now();
  let lastLine = "";
  let lastPlain = { phase: "", decile: -1 };
  let paymentNoted = false;
  for (;;) {
    const status = await client.request<ApiStatus>("GET", `/tests/${testId}`);
    if (status.awaitingPayment && !paymentNoted) {
      say("Waiting for the payment…");
      paymentNoted = true;
    }
    const line = progressBar(status);
    if (tty) {
      if (line !== lastLine) process.stderr.write(`\r\x1b[2K${line}`);
    } else {
      const decile = Math.floor(status.progress.percentage / 10);
      if (status.progress.phase !== lastPlain.phase || decile !== lastPlain.decile) {
        say(`${new Date().toISOString()} ${line}`);
        lastPlain = { phase: status.progress.phase, decile };
      }
    }
    lastLine = line;
    if (FINISHED.has(status.status)) {
      if (tty) process.stderr.write("\n");
      return status;
    }
    if (Date.now() - started > timeoutMs) {
      if (tty) process.stderr.write("\n");
      throw new CliError(
        `Gave up waiting after ${Math.round(timeoutMs / 60_000)} minutes; the test goes on (${status.status}).`,
        EXIT.testFailed,
      );
    }
    await sleep(pollMs);
  }
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: "string" },
      token: { type: "string" },
      out: { type: "string", default: "modeljury-results" },
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
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return values.help ? EXIT.ok : EXIT.refused;
  }
  const [command, file, ...rest] = positionals;
  if (command !== "run" || !file || rest.length > 0) {
    process.stdout.write(USAGE);
    return EXIT.refused;
  }
  const url = values.url ?? process.env.MODELJURY_URL;
  const token = values.token ?? process.env.MODELJURY_TOKEN;
  if (!url) throw new CliError("Set MODELJURY_URL (or --url) to the deployment's site address.", EXIT.refused);
  if (!token) throw new CliError("Set MODELJURY_TOKEN (or --token) to a personal access token.", EXIT.refused);
  const client = clientOf(url, token);

  const { configuration, gates: fileGates } = await configurationOf(file, client, {
    generators: values.generator,
    evaluators: values.evaluator,
  });
  const gates = gatesOf(fileGates, {
    best: values.best,
    topGroup: values["top-group"],
    maxRank: values["max-rank"],
    minPassRate: values["min-pass-rate"],
    maxCost: values["max-cost"],
  });

  const created = await client.request<ApiStatus & { paymentRequired: boolean }>("POST", "/tests", {
    configuration,
  });
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
  const final = await follow(client, created.testId, Number(values.poll) * 1000, Number(values.timeout) * 60_000);
  const results = await client.request<ApiResults>("GET", `/tests/${created.testId}/results`);

  const allowThinEvidence = values["allow-thin-evidence"];
  const verdicts = final.status === "completed" ? checkGates(results, gates, { allowThinEvidence }) : [];
  const out = path.resolve(values.out);
  mkdirSync(out, { recursive: true });
  const markdown = resultsMarkdown(results, verdicts);
  writeFileSync(path.join(out, "results.json"), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(path.join(out, "results.csv"), resultsCsv(results));
  writeFileSync(path.join(out, "summary.md"), markdown);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);
  say(`Results written to ${out} (results.json, results.csv, summary.md)`);

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

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof CliError ? error.exitCode : EXIT.refused);
  },
);
