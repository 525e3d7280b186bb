// The config's test cases: the tests list read, defaultTest's vars merged, vars expanded and loaded.
import { parse as parseYaml } from "yaml";
import { asList, type Context, inConfig, isObject, type Json, refuse, type Where } from "./context";
import { isGlob, MEDIA, normalPath, parsedFile, SCRIPT, splitFunction } from "./files";
import { type Vars } from "./render";
import { globCases, standaloneCases } from "./testFiles";

export interface TestCase {
  /** 1-based, in promptfoo's order (before vars expansion). */
  number: number;
  description?: string;
  vars: Vars;
  asserts: unknown[];
  options: Json;
  where: Where;
  /** Keys of the test ModelJury does not use. */
  unused: string[];
}

/** The config's test cases, before vars expansion, as promptfoo's readTests lists them. */
function readTests(ctx: Context, raw: unknown): { test: Json; where: Where }[] {
  if (raw === undefined || raw === null) return [{ test: {}, where: inConfig(ctx, ["prompts"]) }];
  if (typeof raw === "string") {
    const where = inConfig(ctx, ["tests"]);
    return /ya?ml$/.test(raw) ? globCases(ctx, raw, where) : standaloneCases(ctx, raw, where);
  }
  if (isObject(raw) && typeof raw.path === "string")
    return standaloneCases(ctx, raw.path, inConfig(ctx, ["tests", "path"]));
  if (!Array.isArray(raw)) {
    refuse(
      ctx,
      inConfig(ctx, ["tests"]),
      "tests: is neither a list, a file nor { path }",
      "Give the test cases as a list or a file://tests.csv path.",
    );
    return [];
  }
  const cases = raw.flatMap((entry, index): { test: Json; where: Where }[] => {
    const where = inConfig(ctx, ["tests", index]);
    if (typeof entry === "string") {
      const { path, functionName } = splitFunction(entry);
      if (SCRIPT.test(path) || functionName !== undefined || /\.xlsx?$/i.test(path))
        return standaloneCases(ctx, entry, where);
      return globCases(ctx, entry, where);
    }
    if (isObject(entry) && typeof entry.path === "string") return standaloneCases(ctx, entry.path, where);
    if (!isObject(entry)) {
      refuse(ctx, where, `test ${index + 1} is not a test case`, "Write each test as { vars, assert } or a file path.");
      return [];
    }
    return [{ test: entry, where }];
  });
  return cases.length > 0 ? cases : [{ test: {}, where: inConfig(ctx, ["tests"]) }];
}

/** A test's `vars: file://vars.yaml` (or a list of them): the files' objects merged, as readTestFiles does. */
function varsOfTest(ctx: Context, vars: unknown, where: Where): Vars {
  if (isObject(vars)) return vars;
  if (vars === undefined || vars === null) return {};
  const merged: Vars = {};
  for (const reference of asList(vars)) {
    if (typeof reference !== "string") continue;
    for (const file of isGlob(normalPath(reference))
      ? ctx.files.glob(normalPath(reference))
      : [normalPath(reference)]) {
      const parsed = parsedFile(ctx, file, where);
      if (isObject(parsed)) Object.assign(merged, parsed);
    }
  }
  return merged;
}

const TEST_KEYS = ["description", "vars", "assert", "options"];

export function testCases(ctx: Context, raw: unknown, defaults: Json): TestCase[] {
  return readTests(ctx, raw).map(({ test, where }, index) => ({
    number: index + 1,
    ...(typeof test.description === "string" && test.description ? { description: test.description } : {}),
    vars: { ...(isObject(defaults.vars) ? defaults.vars : {}), ...varsOfTest(ctx, test.vars, where) },
    asserts: asList(test.assert),
    options: isObject(test.options) ? test.options : {},
    where,
    unused: Object.keys(test).filter((key) => !TEST_KEYS.includes(key)),
  }));
}

/** Every combination of a test's vars, as promptfoo's generateVarCombinations makes them. */
export function varCombinations(ctx: Context, vars: Vars, where: Where): Vars[] {
  let combinations: Vars[] = [{}];
  for (const [name, value] of Object.entries(vars)) {
    let values: unknown[];
    if (typeof value === "string" && value.startsWith("file://")) {
      const path = normalPath(value);
      const matches = isGlob(path) ? ctx.files.glob(path) : [path];
      if (matches.length === 0) {
        refuse(
          ctx,
          where,
          `no file matches the variable ${name} (${value})`,
          "Fix the pattern (relative to the config's folder) or add the files.",
        );
        return [];
      }
      values = matches.map((match) => `file://${match}`);
    } else if (Array.isArray(value) && typeof value[0] !== "string") {
      values = [value];
    } else {
      values = Array.isArray(value) ? value : [value];
    }
    combinations = combinations.flatMap((combination) => values.map((one) => ({ ...combination, [name]: one })));
  }
  return combinations;
}

/** A combination's `file://` vars read (text trimmed, YAML as JSON), as promptfoo's renderPrompt loads them. */
export function loadedVars(ctx: Context, vars: Vars, where: Where): Vars | null {
  const loaded: Vars = {};
  for (const [name, value] of Object.entries(vars)) {
    if (typeof value !== "string" || !value.startsWith("file://")) {
      loaded[name] = value;
      continue;
    }
    const path = normalPath(value);
    if (SCRIPT.test(splitFunction(value).path)) {
      refuse(
        ctx,
        where,
        `the variable ${name} comes from a script (${value}), which ModelJury does not run`,
        `Write the value of ${name} into a text file, or inline.`,
      );
      return null;
    }
    if (MEDIA.test(path)) {
      refuse(
        ctx,
        where,
        `the variable ${name} is an image, video, PDF or spreadsheet (${value}); ModelJury sends text only`,
        `Give ${name} as text.`,
      );
      return null;
    }
    const text = ctx.files.read(path);
    if (text === undefined) {
      refuse(
        ctx,
        where,
        `the file ${path} of the variable ${name} was not found`,
        `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
      );
      return null;
    }
    if (/\.ya?ml$/i.test(path)) {
      try {
        loaded[name] = JSON.stringify(parseYaml(text));
      } catch (error) {
        refuse(ctx, { file: path }, `${path} is not valid YAML: ${String(error)}`, `Fix the syntax of ${path}.`);
        return null;
      }
    } else {
      loaded[name] = text.trim();
    }
  }
  // promptfoo drops one trailing newline of each text var, then resolves {{var}} inside vars.
  for (const [name, value] of Object.entries(loaded))
    if (typeof value === "string") loaded[name] = value.replace(/\n$/, "");
  for (let round = 0; round < 5; round++) {
    let changed = false;
    for (const [name, value] of Object.entries(loaded)) {
      if (typeof value !== "string") continue;
      const match = /\{\{\s*(\w+)\s*\}\}/.exec(value);
      if (match && loaded[match[1]] !== undefined) {
        loaded[name] = value.replace(match[0], String(loaded[match[1]]));
        changed = true;
      }
    }
    if (!changed) break;
  }
  return loaded;
}

export function varText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
