// The order `npm test` starts its files in: the longest first, so that on 2 workers the last
// files to start are short ones and neither worker waits long at the end for the other.
// A file's duration comes from Vitest's cache of the last run; on a fresh clone (no cache, as in
// CI) from test/suite-durations.json, the durations of a whole run kept in the repository
// (`npx tsx test/update-suite-durations.ts REPORT.json` after `npx vitest run --reporter=json
// --outputFile=REPORT.json`); a file it does not list yet is guessed from its project and size.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Where the measured durations are kept, by path from the repository's root. */
export const SUITE_DURATIONS_FILE = new URL("./suite-durations.json", import.meta.url);

/** What a journey takes when it was never measured: more than all but a few unit files. */
const JOURNEY_GUESS_MS = 30_000;

function measuredDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(SUITE_DURATIONS_FILE, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const kept = measuredDurations();
    const expectedMs = (spec: TestSpecification): number => {
      const path = relative(config.root, spec.moduleId);
      const key = `${spec.project.name}:${path}`;
      const measured = cache.getFileTestResults(key)?.duration ?? kept[path];
      if (measured !== undefined) return measured;
      if (spec.project.name === "e2e") return JOURNEY_GUESS_MS;
      // A tenth of its bytes as milliseconds: below every journey, larger files first.
      return (cache.getFileStats(key)?.size ?? 0) / 10;
    };
    const cost = new Map(files.map((spec) => [spec, expectedMs(spec)]));
    return [...files].sort((a, b) => cost.get(b)! - cost.get(a)!);
  }
}
