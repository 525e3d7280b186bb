// Writes test/suite-durations.json, the order a fresh clone's `npm test` starts its files in
// (test/suite-order.ts), from a whole run's Vitest JSON report:
//   npx vitest run --reporter=json --outputFile=/tmp/report.json
//   npx tsx test/update-suite-durations.ts /tmp/report.json
// Only the order matters: a run on a busy machine gives durations too long, in about the same order.
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SUITE_DURATIONS_FILE } from "./suite-order.ts";

type Report = { testResults: { name: string; startTime: number; endTime: number }[] };

const reportPath = process.argv[2];
if (!reportPath) throw new Error("Usage: npx tsx test/update-suite-durations.ts REPORT.json");
const report = JSON.parse(readFileSync(reportPath, "utf8")) as Report;
const root = fileURLToPath(new URL("..", import.meta.url));
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [relative(root, file.name), Math.round(file.endTime - file.startTime)] as const)
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(SUITE_DURATIONS_FILE, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} files' durations written to test/suite-durations.json`);
