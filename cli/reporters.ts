// How a finished run is reported beyond the files: a ranking table for the console, the JSON a
// pipeline reads on stdout (`--format json`), and JUnit XML (`--junit FILE`), which most CI
// systems show as tests: one test case per gate.
import { costOf, type ApiResults, type GateVerdict } from "./report";

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** The rankings as an aligned text table: rank range, model, score, interval, top group, checks. */
export function rankingTable(results: ApiResults): string {
  const header = ["#", "Model", "Score", "95% interval", "Ranks", "Top", ...(results.checks ? ["Checks passed"] : [])];
  const rows = results.rankings.map((ranking, index) => {
    const checks = results.checks?.models.find((model) => model.modelId === ranking.modelId)?.overall;
    return [
      String(index + 1),
      ranking.modelName,
      ranking.averageScore.toFixed(2),
      ranking.scoreInterval ? `${ranking.scoreInterval.low.toFixed(2)}–${ranking.scoreInterval.high.toFixed(2)}` : "–",
      ranking.rank ? `${ranking.rank.best}–${ranking.rank.worst}` : "–",
      results.topGroup.includes(ranking.modelId) ? "yes" : "",
      ...(results.checks
        ? [
            checks && checks.rate !== null
              ? `${checks.passed}/${checks.answers} (${(checks.rate * 100).toFixed(1)}%)`
              : "–",
          ]
        : []),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const numeric = new Set([0, 2]);
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => pad(cell, widths[column], numeric.has(column)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n") + "\n";
}

/** What `--format json` writes to stdout: the results, the gates' verdicts and whether all passed. */
export function jsonReport(results: ApiResults, verdicts: readonly GateVerdict[]): string {
  return (
    JSON.stringify(
      {
        testId: results.test.testId,
        status: results.test.status,
        final: results.final ?? results.test.final ?? null,
        costUsd: costOf(results.test),
        gates: verdicts,
        passed: results.test.status === "completed" && verdicts.every((verdict) => verdict.passed),
        results,
      },
      null,
      2,
    ) + "\n"
  );
}

function xml(text: string): string {
  return (
    text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      // XML 1.0 allows no control characters but tab, newline and carriage return.
      .replace(/\p{Cc}/gu, (character) => ("\t\n\r".includes(character) ? character : ""))
  );
}

/**
 * JUnit XML: one test suite for the run, one test case per gate (failed with its reason). A run
 * that did not complete is one errored case, since no gate could be judged.
 */
export function junitXml(results: ApiResults, verdicts: readonly GateVerdict[]): string {
  const { test } = results;
  const suite = `ModelJury: ${test.name}`;
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  if (test.status !== "completed") {
    errors = 1;
    cases.push(
      `    <testcase classname="modeljury" name="${xml(`test ${test.testId}`)}">\n` +
        `      <error message="${xml(`The test ${test.status}${test.error ? `: ${test.error}` : ""}`)}"/>\n` +
        `    </testcase>`,
    );
  }
  for (const verdict of verdicts) {
    if (verdict.passed) {
      cases.push(
        `    <testcase classname="modeljury.gates" name="${xml(verdict.gate)}">\n      <system-out>${xml(verdict.reason)}</system-out>\n    </testcase>`,
      );
    } else {
      failures++;
      cases.push(
        `    <testcase classname="modeljury.gates" name="${xml(verdict.gate)}">\n` +
          `      <failure message="${xml(verdict.reason)}" type="gate">${xml(verdict.reason)}</failure>\n` +
          `    </testcase>`,
      );
    }
  }
  const count = cases.length;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="modeljury" tests="${count}" failures="${failures}" errors="${errors}">`,
    `  <testsuite name="${xml(suite)}" tests="${count}" failures="${failures}" errors="${errors}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
