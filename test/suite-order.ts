// The order `npm test` starts its files in: the longest first, so that on 2 workers the last
// files to start are short ones and neither worker waits long at the end for the other.
// A file's duration comes from Vitest's cache of the last run; on a fresh clone (no cache),
// the few long unit files go first, then the browser journeys (tens of seconds each), then the
// other files, largest first.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** What a journey takes when no run has been measured: more than all but a few unit files. */
const JOURNEY_GUESS_MS = 30_000;
/**
 * Unit files that take as long as the longest journeys (each over a minute on a loaded machine:
 * child backends, a burst of sign-ups, whole runs through the dev gateway). Only an order hint:
 * a file missing here starts later, nothing else.
 */
const LONG_UNIT_FILES = new Set([
  "dev/backend/durability.test.ts",
  "dev/backend/signUpBurst.test.ts",
  "convex/core/juryPipeline.test.ts",
]);

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const expectedMs = (spec: TestSpecification): number => {
      const path = relative(config.root, spec.moduleId);
      const key = `${spec.project.name}:${path}`;
      const measured = cache.getFileTestResults(key)?.duration;
      if (measured !== undefined) return measured;
      if (LONG_UNIT_FILES.has(path)) return 2 * JOURNEY_GUESS_MS;
      if (spec.project.name === "e2e") return JOURNEY_GUESS_MS;
      // A tenth of its bytes as milliseconds: below every journey, larger files first.
      return (cache.getFileStats(key)?.size ?? 0) / 10;
    };
    const cost = new Map(files.map((spec) => [spec, expectedMs(spec)]));
    return [...files].sort((a, b) => cost.get(b)! - cost.get(a)!);
  }
}
