// @vitest-environment node
// No regular expression in the backend may backtrack badly: one request
// with a crafted 100,000-character input must not stall every other user. This test finds every
// regex literal in convex/ (tests and generated code aside) and runs each against the inputs
// that make backtracking patterns slow — long runs of one or two characters after a prefix that
// reaches the pattern's repeated part, ending where the match must fail — and times them.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = join(__dirname, "..");
/** A linear pattern needs well under a millisecond for 8,000 characters; a quadratic one about 200 ms. */
const BUDGET_MS = 30;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "_generated" || name === "node_modules" ? [] : sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

function regexLiterals(path: string): { where: string; regex: RegExp }[] {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const found: { where: string; regex: RegExp }[] = [];
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(file);
      const end = text.lastIndexOf("/");
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      found.push({
        where: `${relative(ROOT, path)}:${line} ${text}`,
        regex: new RegExp(text.slice(1, end), text.slice(end + 1).replace("g", "")),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const PREFIXES = ["", "a", "a@", "[", "```", "```a", "http://", "answer "];
const CHARS = [" ", "\t", "\n", ".", "/", "@", "a", "0", "`", "-", "_", "[", "]", ":"];
const PAIRED = [" ", ".", "a", "/", "@", "`"];
const FILLERS = [
  ...CHARS,
  ...PAIRED.flatMap((first) => PAIRED.filter((second) => second !== first).map((second) => first + second)),
];
const SUFFIXES = ["\u0000", "@"];
/** Doubling lengths: a runaway (cubic) pattern is caught at a small size before it can hang the run. */
const LENGTHS = [250, 500, 1000, 2000, 4000, 8000];

/** Milliseconds to test and replace; a slow run is repeated (the machine is shared) and the fastest kept. */
function timed(regex: RegExp, input: string): number {
  let best = Infinity;
  for (let run = 0; run < 3 && best > BUDGET_MS; run++) {
    const started = performance.now();
    regex.test(input);
    input.replace(regex, "");
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** The slowest of the crafted inputs for this pattern, in milliseconds (stops at the first over budget). */
function worstCase(regex: RegExp): { ms: number; input: string } {
  let worst = { ms: 0, input: "" };
  for (const prefix of PREFIXES) {
    for (const filler of FILLERS) {
      for (const suffix of SUFFIXES) {
        for (const length of LENGTHS) {
          const input = prefix + filler.repeat(Math.ceil(length / filler.length)) + suffix;
          const ms = timed(regex, input);
          if (ms > worst.ms) {
            worst = {
              ms,
              input: `${JSON.stringify(prefix)} + ${JSON.stringify(filler)} × ${length} + ${JSON.stringify(suffix)}`,
            };
          }
          if (ms > BUDGET_MS) return worst;
        }
      }
    }
  }
  return worst;
}

describe("backend patterns", () => {
  const patterns = sourceFiles(ROOT).flatMap(regexLiterals);

  test("the scan finds the backend's patterns", () => {
    expect(patterns.length).toBeGreaterThan(5);
  });

  test("the old email pattern is caught by the scan's inputs (the test can fail)", () => {
    expect(worstCase(/^[^\s@]+@[^\s@]+\.[^\s@]+$/).ms).toBeGreaterThan(BUDGET_MS);
  });

  test.each(patterns.map((pattern) => [pattern.where, pattern.regex] as const))("%s stays linear", (_where, regex) => {
    const { ms, input } = worstCase(regex);
    expect(ms, `worst input: ${input}`).toBeLessThan(BUDGET_MS);
  });
});
