// The order `npm test` starts its files in: the longest first, so that on 2 workers the last
// files to start are short ones and neither worker waits long at the end for the other.
// A file's duration comes from Vitest's cache of the last run; on a fresh clone (no cache),
// browser journeys (tens of seconds each) go first, then the other files largest first.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** What a journey takes when no run has been measured: more than all but a few unit files. */
const JOURNEY_GUESS_MS = 30_000;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const known = (spec: TestSpecification) =>
      cache.getFileTestResults(`${spec.project.name}:${relative(config.root, spec.moduleId)}`)?.duration;
    const guess = (spec: TestSpecification) =>
      spec.project.name === "e2e"
        ? JOURNEY_GUESS_MS
        : (cache.getFileStats(`${spec.project.name}:${relative(config.root, spec.moduleId)}`)?.size ?? 0) / 1_000;
    const cost = new Map(files.map((spec) => [spec, known(spec) ?? guess(spec)]));
    return [...files].sort((a, b) => cost.get(b)! - cost.get(a)!);
  }
}
