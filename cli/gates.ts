// The gates a run is judged by, read from the configuration's `gates:` and the flags, and checked
// against the test's configuration before anything is created or paid: a gate on a model the
// test does not run, on a check it does not have, or with a threshold out of range is refused.
// (Whether a gate passes is decided on the results, in report.ts checkGates.)
import { decidePassRate, gateVerdicts } from "../convex/lib/gates";
import type { ImportProblem } from "../convex/lib/promptfoo";
import { isObject, type Json } from "./api";
import type { ApiResults, GateVerdict, Gates } from "./report";

export interface GateFlags {
  best: string[];
  topGroup: string[];
  maxRank: string[];
  minPassRate: string[];
  maxCost?: string;
}

/** A per-check pass-rate gate: `--min-pass-rate MODEL@CHECK=RATE`, or `minPassRate: { MODEL: { CHECK: RATE } }`. */
export interface CheckGate {
  modelId: string;
  checkId: string;
  rate: number;
}

export interface ReadGates {
  gates: Gates;
  checkGates: CheckGate[];
  problems: ImportProblem[];
}

/** A rate as written (0.9, "90%", 90) as a fraction, or null when it is not one from 0 to 1. */
function rateOf(value: unknown): number | null {
  const textValue = String(value).trim();
  let number = typeof value === "number" ? value : Number(textValue.replace(/%$/, ""));
  if (textValue.endsWith("%") || number > 1) number /= 100;
  return Number.isFinite(number) && number >= 0 && number <= 1 && textValue !== "" ? number : null;
}

export function readGates(raw: unknown, flags: GateFlags, file: string): ReadGates {
  const fromFile = isObject(raw) ? raw : {};
  const problems: ImportProblem[] = [];
  const refuse = (reason: string, fix: string) => problems.push({ file, reason, fix });
  const list = (value: unknown) =>
    Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
  const gates: Gates = {
    best: [...list(fromFile.best), ...flags.best],
    topGroup: [...list(fromFile.topGroup), ...flags.topGroup],
    maxRank: {},
    minPassRate: {},
  };
  const addRank = (modelId: string, value: unknown, where: string) => {
    const rank = Number(value);
    if (!Number.isInteger(rank) || rank < 1) {
      refuse(`${where}: the rank "${String(value)}" is not a whole number from 1`, "Give a rank such as 1 or 2.");
      return;
    }
    gates.maxRank![modelId] = rank;
  };
  if (isObject(fromFile.maxRank)) {
    for (const [modelId, value] of Object.entries(fromFile.maxRank))
      addRank(modelId, value, `gates.maxRank.${modelId}`);
  }
  for (const flag of flags.maxRank) {
    const at = flag.lastIndexOf("=");
    if (at <= 0) refuse(`--max-rank takes MODEL=N, got "${flag}"`, "Write it as openai/gpt-4o=2.");
    else addRank(flag.slice(0, at), flag.slice(at + 1), `--max-rank ${flag}`);
  }
  const checkGates: CheckGate[] = [];
  const addRate = (modelId: string, checkId: string | null, value: unknown, where: string) => {
    const rate = rateOf(value);
    if (rate === null) {
      refuse(`${where}: the pass rate "${String(value)}" is out of range`, "Give a rate from 0 to 1, or 0% to 100%.");
      return;
    }
    if (checkId === null) gates.minPassRate[modelId] = rate;
    else checkGates.push({ modelId, checkId, rate });
  };
  if (isObject(fromFile.minPassRate)) {
    for (const [modelId, value] of Object.entries(fromFile.minPassRate)) {
      if (isObject(value)) {
        for (const [checkId, rate] of Object.entries(value))
          addRate(modelId, checkId, rate, `gates.minPassRate.${modelId}.${checkId}`);
      } else addRate(modelId, null, value, `gates.minPassRate.${modelId}`);
    }
  }
  for (const flag of flags.minPassRate) {
    const at = flag.lastIndexOf("=");
    if (at <= 0) {
      refuse(`--min-pass-rate takes MODEL=RATE or MODEL@CHECK=RATE, got "${flag}"`, "Write it as openai/gpt-4o=0.9.");
      continue;
    }
    const target = flag.slice(0, at);
    const split = target.lastIndexOf("@");
    if (split > 0)
      addRate(target.slice(0, split), target.slice(split + 1), flag.slice(at + 1), `--min-pass-rate ${flag}`);
    else addRate(target, null, flag.slice(at + 1), `--min-pass-rate ${flag}`);
  }
  const maxCost = flags.maxCost ?? fromFile.maxCostUsd;
  if (maxCost !== undefined) {
    const number = Number(maxCost);
    if (!Number.isFinite(number) || number < 0 || String(maxCost).trim() === "") {
      refuse(
        `the cost gate "${String(maxCost)}" is not an amount of dollars`,
        "Give dollars at least 0, e.g. --max-cost 2.50.",
      );
    } else gates.maxCostUsd = number;
  }
  return { gates, checkGates, problems };
}

/** The gates' problems against the test's configuration: models it runs, checks it has. */
export function gateProblems(
  read: ReadGates,
  configuration: Json,
  generatorIds: string[],
  file: string,
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const models = generatorIds.length > 0 ? generatorIds.join(", ") : "none";
  const notRun = (modelId: string, gate: string) =>
    problems.push({
      file,
      reason: `the gate "${gate}" names ${modelId}, which is not one of the test's generator models (${models})`,
      fix: "Name a generator model of the test, or add it with --generator.",
    });
  for (const modelId of read.gates.best ?? [])
    if (!generatorIds.includes(modelId)) notRun(modelId, `${modelId} is best`);
  for (const modelId of read.gates.topGroup)
    if (!generatorIds.includes(modelId)) notRun(modelId, `${modelId} in the top group`);
  for (const modelId of Object.keys(read.gates.maxRank ?? {}))
    if (!generatorIds.includes(modelId)) notRun(modelId, `${modelId} rank`);
  const checks = Array.isArray(configuration.checks) ? configuration.checks.filter(isObject) : [];
  const checkIds = checks.map((check) => String(check.id));
  const passRateModels = [...Object.keys(read.gates.minPassRate), ...read.checkGates.map((gate) => gate.modelId)];
  for (const modelId of new Set(passRateModels))
    if (!generatorIds.includes(modelId)) notRun(modelId, `${modelId} check pass rate`);
  if (passRateModels.length > 0 && checks.length === 0) {
    problems.push({
      file,
      reason: "a pass-rate gate is set, but the test has no checks",
      fix: "Add checks to the configuration (or assertions ModelJury checks, for a promptfoo config), or drop the gate.",
    });
  }
  for (const gate of read.checkGates) {
    if (checks.length > 0 && !checkIds.includes(gate.checkId)) {
      problems.push({
        file,
        reason: `the gate "${gate.modelId}@${gate.checkId}" names the check ${gate.checkId}, which the test does not have`,
        fix: `Name one of the test's checks: ${checkIds.join(", ")}.`,
      });
    }
  }
  return problems;
}

/** Each per-check gate's verdict on the results (pass rate of one model on one check), settled by its interval. */
export function checkGateVerdicts(
  results: ApiResults,
  checkGates: readonly CheckGate[],
  options: { allowThinEvidence?: boolean } = {},
): GateVerdict[] {
  const decisions = checkGates.map((gate) => {
    const name = `${gate.modelId} check ${gate.checkId} pass rate ≥ ${(gate.rate * 100).toFixed(1)}%`;
    const model = results.checks?.models.find((row) => row.modelId === gate.modelId);
    const rate = model?.byCheck.find((row) => row.checkId === gate.checkId);
    if (!rate) return { gate: name, outcome: "failed" as const, reason: `no answer of ${gate.modelId} was checked` };
    return decidePassRate(name, model?.modelName ?? gate.modelId, rate, gate.rate);
  });
  return gateVerdicts(decisions, options);
}
