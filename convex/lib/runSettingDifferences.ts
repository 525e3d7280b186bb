// What differs in how two compared tests run (issue 35 on the compare page's "What differs in the
// configuration"): their repeats and their "stop when settled" question, in the setup page's
// words (lib/settleWords.ts). The seed of the pairs' order is each test's own and never counts.
import { repeatsOf } from "./repeats";
import { settleQuestionText } from "./settleWords";
import type { TestConfiguration } from "../validators";

/** "Which model is best? at 95%", or "off". */
function settleSettingText(config: TestConfiguration): string {
  const setting = config.stopWhenSettled;
  if (setting === undefined) return "off";
  const names = new Map(config.generatorModels.map((model) => [model.id, model.name]));
  return `${settleQuestionText(setting, names)} at ${Math.round(setting.confidence * 100)}%`;
}

/** "Repeats: 1 in A, 3 in B." and "Stop when settled: off in A, Which model is best? at 95% in B." when they differ. */
export function runSettingDifferences(a: TestConfiguration, b: TestConfiguration): string[] {
  const out: string[] = [];
  const repeatsA = repeatsOf(a.repeats);
  const repeatsB = repeatsOf(b.repeats);
  if (repeatsA !== repeatsB) out.push(`Repeats: ${repeatsA} in A, ${repeatsB} in B.`);
  const settleA = settleSettingText(a);
  const settleB = settleSettingText(b);
  if (settleA !== settleB) out.push(`Stop when settled: ${settleA} in A, ${settleB} in B.`);
  return out;
}
