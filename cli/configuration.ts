// What `modeljury run` and `modeljury import` send: a ModelJury configuration as written, or a
// promptfoo configuration imported (convex/lib/promptfoo/) with the files it names read from
// disk relative to the config's folder, then the flags' models added. Every reason the test
// could not run as written is collected as a problem (file, line, reason, fix), so the command
// stops before anything is created or paid.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { globSync } from "tinyglobby";
import { parse as parseYaml } from "yaml";
import {
  importPromptfoo,
  isPromptfooConfig,
  type ImportProblem,
  type PromptfooFiles,
  type PromptfooImport,
} from "../convex/lib/promptfoo";
import { CliError, EXIT, isObject, type Json } from "./api";

/** The files under a config's folder, read from disk. */
export function filesOnDisk(directory: string): PromptfooFiles {
  return {
    read(relative) {
      const full = path.resolve(directory, relative);
      if (!existsSync(full) || !statSync(full).isFile()) return undefined;
      return readFileSync(full, "utf8");
    },
    glob(pattern) {
      return globSync(pattern, { cwd: directory, onlyFiles: true, expandDirectories: false }).sort();
    },
  };
}

export interface LoadedConfiguration {
  configuration: Json;
  gates: unknown;
  /** The promptfoo import, when the file was a promptfoo configuration. */
  promptfoo?: PromptfooImport;
  problems: ImportProblem[];
}

export interface ConfigurationFlags {
  generators: string[];
  evaluators: string[];
}

function modelIds(value: unknown): string[] {
  return Array.isArray(value)
    ? value.flatMap((entry) =>
        typeof entry === "string" ? [entry] : isObject(entry) && typeof entry.id === "string" ? [entry.id] : [],
      )
    : [];
}

/** The configuration of CONFIG, with `catalogIds` (null: no server to ask) to match promptfoo providers. */
export function loadConfiguration(
  file: string,
  catalogIds: readonly string[] | null,
  flags: ConfigurationFlags,
): LoadedConfiguration {
  if (!existsSync(file)) throw new CliError(`No such file: ${file}`, EXIT.refused);
  const text = readFileSync(file, "utf8");
  const isJson = /\.json$/i.test(file);
  let parsed: unknown;
  try {
    parsed = isJson ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new CliError(`${file} is not valid ${isJson ? "JSON" : "YAML"}: ${String(error)}`, EXIT.refused);
  }
  if (!isObject(parsed)) throw new CliError(`${file} does not hold a configuration object.`, EXIT.refused);

  const name = path.basename(file);
  let configuration: Json;
  let gates: unknown = parsed.gates;
  let promptfoo: PromptfooImport | undefined;
  const problems: ImportProblem[] = [];
  if (isPromptfooConfig(parsed)) {
    const extra = isObject(parsed.modeljury) ? parsed.modeljury : {};
    const { modeljury: _ignored, ...config } = parsed;
    promptfoo = importPromptfoo(config, {
      catalogIds,
      files: filesOnDisk(path.dirname(path.resolve(file))),
      configFile: name,
      configText: text,
    });
    problems.push(...promptfoo.problems);
    const { gates: extraGates, ...settings } = extra;
    gates = extraGates;
    configuration = { ...promptfoo.configuration, ...settings };
  } else {
    const { gates: _gates, ...rest } = parsed;
    configuration = rest;
  }
  const add = (key: string, added: string[]) => {
    if (added.length > 0) configuration[key] = [...modelIds(configuration[key]), ...added];
  };
  add("generatorModels", flags.generators);
  add("evaluatorModels", flags.evaluators);
  if (modelIds(configuration.generatorModels).length === 0) {
    problems.push({
      file: name,
      reason: promptfoo
        ? "none of the providers is a model ModelJury runs"
        : "the configuration names no generator model",
      fix: promptfoo
        ? "Name catalog models as providers (openrouter:vendor/model, openai:gpt-4o, …) or add --generator MODEL."
        : "Add generatorModels: [vendor/model] or --generator MODEL.",
    });
  }
  if (modelIds(configuration.evaluatorModels).length === 0) {
    problems.push({
      file: name,
      reason: promptfoo
        ? "the config names no grader, so the jury has no evaluator model"
        : "the configuration names no evaluator model",
      fix: promptfoo
        ? "Add --evaluator MODEL, or modeljury: { evaluatorModels: [MODEL] } in the config, or a grader under defaultTest.options.provider."
        : "Add evaluatorModels: [vendor/model] or --evaluator MODEL.",
    });
  }
  return { configuration, gates, ...(promptfoo ? { promptfoo } : {}), problems };
}

export function generatorIdsOf(configuration: Json): string[] {
  return modelIds(configuration.generatorModels);
}

export function evaluatorIdsOf(configuration: Json): string[] {
  return modelIds(configuration.evaluatorModels);
}

/** "file:line: reason\n    fix: …" for each problem. */
export function problemLines(problems: readonly ImportProblem[]): string[] {
  return problems.flatMap((problem) => [
    `  ✗ ${problem.file}${problem.line === undefined ? "" : `:${problem.line}`}: ${problem.reason}`,
    `    fix: ${problem.fix}`,
  ]);
}
