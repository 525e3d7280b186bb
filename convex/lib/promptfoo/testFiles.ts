// Test cases from files (CSV rows, JSON, JSONL, YAML) and globs of them, as promptfoo reads them.
import Papa from "papaparse";
import { asList, type Context, isObject, type Json, locator, refuse, type Where } from "./context";
import { extensionOf, isGlob, normalPath, parsedFile, SCRIPT, splitFunction } from "./files";

const ASSERTION_TYPES = [
  "answer-relevance bleu classifier contains-all contains-any contains-json contains-sql",
  "contains-xml contains context-faithfulness context-recall context-relevance cost equals",
  "factuality finish-reason g-eval gleu guardrails icontains-all icontains-any icontains is-html",
  "is-json is-refusal is-sql is-valid-function-call is-valid-openai-function-call",
  "is-valid-openai-tools-call is-xml javascript latency levenshtein llm-rubric meteor",
  "model-graded-closedqa model-graded-factuality moderation perplexity-score perplexity pi python",
  "regex rouge-n ruby select-best similar starts-with trace-error-spans trace-span-count",
  "trace-span-duration webhook word-count",
]
  .join(" ")
  .split(" ");

/** An assertion written in a CSV cell (`__expected`), as promptfoo's assertionFromString reads it. */
export function assertionFromString(expected: string): Json {
  for (const prefix of ["javascript:", "fn:", "eval:"]) {
    if (expected.startsWith(prefix)) return { type: "javascript", value: expected.slice(prefix.length).trim() };
  }
  if (expected.startsWith("grade:")) return { type: "llm-rubric", value: expected.slice(6) };
  if (expected.startsWith("llm-rubric:")) return { type: "llm-rubric", value: expected.slice(11) };
  if (expected.startsWith("python:")) return { type: "python", value: expected.slice(7).trim() };
  if (expected.startsWith("file://") && /\.py(:|$)/.test(expected))
    return { type: "python", value: expected.slice(7).trim() };
  if (expected.startsWith("file://") && /\.(js|ts)(:|$)/.test(expected))
    return { type: "javascript", value: expected.slice(7).trim() };
  const pattern = new RegExp(`^(not-)?(${ASSERTION_TYPES.join("|")})(?:\\((\\d+(?:\\.\\d+)?)\\))?(?::([\\s\\S]*))?$`);
  const match = pattern.exec(expected);
  if (match) {
    const [, not, type, thresholdText, value] = match;
    const fullType = `${not ?? ""}${type}`;
    if (["contains-all", "contains-any", "icontains-all", "icontains-any"].includes(type)) {
      return { type: fullType, value: (value ?? "").split(",").map((part) => part.trim()) };
    }
    const threshold = Number.parseFloat(thresholdText ?? "");
    if (
      [
        "answer-relevance",
        "classifier",
        "context-faithfulness",
        "context-recall",
        "context-relevance",
        "cost",
        "latency",
        "levenshtein",
        "perplexity-score",
        "perplexity",
        "rouge-n",
        "similar",
        "starts-with",
      ].includes(type)
    ) {
      return { type: fullType, value, threshold: threshold || (type === "similar" ? 0.8 : 0.75) };
    }
    return { type: fullType, value };
  }
  return { type: "equals", value: expected };
}

/** A CSV row (or a YAML row of a standalone file) as promptfoo's testCaseFromCsvRow reads it. */
function testCaseOfRow(row: Record<string, string>): Json {
  const vars: Record<string, string> = {};
  const asserts: Json[] = [];
  const options: Json = {};
  let description: string | undefined;
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith("__expected")) {
      if (String(value).trim() !== "") asserts.push(assertionFromString(String(value)));
    } else if (key === "__prefix") options.prefix = value;
    else if (key === "__suffix") options.suffix = value;
    else if (key === "__description") description = value;
    else if (!["__providerOutput", "__metric", "__threshold"].includes(key) && !/^__(metadata|config):/.test(key)) {
      vars[key] = value;
    }
  }
  return { vars, assert: asserts, options, ...(description ? { description } : {}) };
}

function withRowDescriptions(cases: { test: Json; where: Where }[]): { test: Json; where: Where }[] {
  return cases.map((entry, index) => ({
    ...entry,
    test: { ...entry.test, description: (entry.test.description as string | undefined) || `Row #${index + 1}` },
  }));
}

/** Rows of a CSV file, with each row's first line. */
function csvCases(ctx: Context, path: string, where: Where): { test: Json; where: Where }[] {
  const text = ctx.files.read(path);
  if (text === undefined) {
    refuse(
      ctx,
      where,
      `the tests file ${path} was not found`,
      `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
    );
    return [];
  }
  const body = text.replace(/^\uFEFF/, "");
  const parsed = Papa.parse<Record<string, string>>(body, { header: true, skipEmptyLines: true, delimiter: "," });
  const fatal = parsed.errors.find((error) => error.type !== "FieldMismatch");
  if (fatal) {
    refuse(
      ctx,
      { file: path, ...(fatal.row === undefined ? {} : { line: fatal.row + 2 }) },
      `${path} is not valid CSV: ${fatal.message}`,
      `Fix the CSV syntax of ${path}.`,
    );
    return [];
  }
  // Each row's first line: after the header line, counting the line breaks inside quoted cells.
  const lines: number[] = [];
  let line = 2;
  for (const row of parsed.data) {
    lines.push(line);
    line += 1 + Object.values(row).reduce((sum, cell) => sum + (String(cell ?? "").match(/\n/g)?.length ?? 0), 0);
  }
  return parsed.data.map((row, index) => ({ test: testCaseOfRow(row), where: { file: path, line: lines[index] } }));
}

/** A standalone tests file (`tests: file://tests.csv`, `{ path }`), as readStandaloneTestsFile reads it. */
export function standaloneCases(ctx: Context, reference: string, where: Where): { test: Json; where: Where }[] {
  const { path, functionName } = splitFunction(reference);
  const extension = extensionOf(path);
  if (SCRIPT.test(path) || functionName !== undefined) {
    refuse(
      ctx,
      where,
      `the tests in ${reference} come from a script (JavaScript or Python), which ModelJury does not run`,
      "Write the test cases it returns into a CSV, JSON, JSONL or YAML file and name that file.",
    );
    return [];
  }
  if (/^(https?|huggingface|langfuse|az):\/\//.test(reference)) {
    refuse(
      ctx,
      where,
      `the tests at ${reference} are not read (only local files are)`,
      "Download the test cases into a CSV, JSON, JSONL or YAML file next to the config.",
    );
    return [];
  }
  if (extension === "csv") return withRowDescriptions(csvCases(ctx, path, where));
  if (extension === "jsonl") return jsonlCases(ctx, path, where, true);
  if (extension === "json" || extension === "yaml" || extension === "yml") {
    const parsed = parsedFile(ctx, path, where);
    if (parsed === undefined) return [];
    const lineOf = locator(ctx.files.read(path));
    const rows = asList(parsed).map((test, index) => ({
      test:
        extension === "json"
          ? isObject(test)
            ? test
            : {}
          : testCaseOfRow(isObject(test) ? (test as Record<string, string>) : {}),
      where: { file: path, ...(lineOf([index]) === undefined ? {} : { line: lineOf([index]) }) },
    }));
    return withRowDescriptions(rows);
  }
  refuse(
    ctx,
    where,
    `tests from ${extension ? `.${extension}` : "this kind of"} file (${reference}) are not read`,
    "Use a CSV, JSON, JSONL or YAML tests file.",
  );
  return [];
}

function jsonlCases(ctx: Context, path: string, where: Where, numbered: boolean): { test: Json; where: Where }[] {
  const text = ctx.files.read(path);
  if (text === undefined) {
    refuse(
      ctx,
      where,
      `the tests file ${path} was not found`,
      `Put ${path} next to ${ctx.configFile}, or fix the path.`,
    );
    return [];
  }
  const cases: { test: Json; where: Where }[] = [];
  text.split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    try {
      const test = JSON.parse(line) as unknown;
      cases.push({
        test: { ...(isObject(test) ? test : {}), ...(numbered ? { description: `Row #${cases.length + 1}` } : {}) },
        where: { file: path, line: index + 1 },
      });
    } catch (error) {
      refuse(
        ctx,
        { file: path, line: index + 1 },
        `this line is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        "Write one JSON object per line.",
      );
    }
  });
  return cases;
}

/** A glob of test files (`tests: [file://cases/*.yaml]`), as loadTestsFromGlob reads them. */
export function globCases(ctx: Context, reference: string, where: Where): { test: Json; where: Where }[] {
  const path = normalPath(reference);
  const matches = isGlob(path) ? ctx.files.glob(path) : ctx.files.read(path) === undefined ? [] : [path];
  if (matches.length === 0) {
    refuse(
      ctx,
      where,
      `no tests file matches ${reference}`,
      "Fix the path or pattern (relative to the config's folder) or add the files.",
    );
    return [];
  }
  return matches.flatMap((file) => {
    const extension = extensionOf(file);
    if (extension === "csv") return withRowDescriptions(csvCases(ctx, file, where));
    if (extension === "jsonl") return jsonlCases(ctx, file, where, false);
    if (extension === "yaml" || extension === "yml" || extension === "json") {
      const parsed = parsedFile(ctx, file, where);
      if (parsed === undefined) return [];
      const lineOf = locator(ctx.files.read(file));
      const list = Array.isArray(parsed) ? parsed : [parsed];
      return list.map((test, index) => {
        const line = lineOf(Array.isArray(parsed) ? [index] : []);
        return { test: isObject(test) ? test : {}, where: { file, ...(line === undefined ? {} : { line }) } };
      });
    }
    refuse(ctx, where, `tests from ${file} are not read`, "Use CSV, JSON, JSONL or YAML tests files.");
    return [];
  });
}
