// The checks in the results export. CSV: on each answer row, one column per check ("pass", "fail",
// or empty where the check does not apply to the answer's topic), the reasons it failed, and its
// model's overall pass rate with the 95% Wilson interval — every figure of the Checks section can
// be rebuilt from the per-check columns (rebuildCheckFigures). JSON: the checks with their labels
// and all figures, and each raw response's failures.
import {
  checkColumnsOf,
  checkFigures,
  tallyOfExportedAnswer,
  type CheckFigures,
} from "../../../convex/lib/checkFigures";
import { checkLabel, type AnswerCheck } from "../../../convex/lib/checks";
import { checkFailureReasons } from "../../../convex/lib/checkReasons";

interface ExportedAnswer {
  readonly modelId: string;
  readonly personaId: string;
  readonly topicId: string;
  readonly topicTitle: string;
  readonly checkFailures?: readonly { readonly checkId: string; readonly reason: string }[];
}

export const CHECK_MODEL_COLUMNS = [
  "Model Check Pass Rate",
  "Model Check Pass 95% Low",
  "Model Check Pass 95% High",
] as const;
export const CHECK_FAILURES_COLUMN = "Check Failures";

/** "Check 1: contains "refund"". */
export function checkColumnName(check: AnswerCheck, index: number, topicName: (topicId: string) => string | undefined) {
  return `Check ${index + 1}: ${checkLabel(check, topicName)}`;
}

const fixed = (value: number | null | undefined) => (value === null || value === undefined ? "" : value.toFixed(4));

/** The test's figures from its answers, in the order the answers' models and personas first appear. */
export function figuresOfAnswers(answers: readonly ExportedAnswer[], checks: readonly AnswerCheck[]): CheckFigures {
  const modelIds = [...new Set(answers.map((answer) => answer.modelId))];
  const personaIds = [...new Set(answers.map((answer) => answer.personaId))];
  return checkFigures(
    answers.map((answer) =>
      tallyOfExportedAnswer(
        { modelId: answer.modelId, personaId: answer.personaId, byCheck: checkColumnsOf(checks, answer) },
        checks,
      ),
    ),
    checks,
    modelIds,
    personaIds,
  );
}

/** The extra CSV columns: one per check, the failures, the model's pass rate. */
export function checkCsvColumns(
  answers: readonly ExportedAnswer[],
  checks: readonly AnswerCheck[],
): { fields: string[]; answerCells: (answer: ExportedAnswer) => string[]; emptyCells: string[] } {
  if (checks.length === 0) return { fields: [], answerCells: () => [], emptyCells: [] };
  const topics = new Map(answers.map((answer) => [answer.topicId, answer.topicTitle]));
  const figures = figuresOfAnswers(answers, checks);
  const byModel = new Map(figures.models.map((model) => [model.modelId, model.overall]));
  const fields = [
    ...checks.map((check, index) => checkColumnName(check, index, (id) => topics.get(id))),
    CHECK_FAILURES_COLUMN,
    ...CHECK_MODEL_COLUMNS,
  ];
  return {
    fields,
    answerCells: (answer) => {
      const columns = checkColumnsOf(checks, answer);
      const overall = byModel.get(answer.modelId);
      return [
        ...checks.map((check) => columns[check.id] ?? ""),
        checkFailureReasons(answer.checkFailures ?? []),
        fixed(overall?.rate),
        fixed(overall?.interval?.low),
        fixed(overall?.interval?.high),
      ];
    },
    emptyCells: fields.map(() => ""),
  };
}

/**
 * Every figure again from a parsed CSV (rows keyed by column name): the answer rows' model,
 * persona and per-check columns are all it takes.
 */
export function rebuildCheckFigures(
  rows: readonly Record<string, string>[],
  checks: readonly AnswerCheck[],
  topicName: (topicId: string) => string | undefined,
): CheckFigures {
  const answers = rows.filter((row) => row["Row Type"] === "Answer");
  const modelIds = [...new Set(answers.map((row) => row["Model ID"]))];
  const personaIds = [...new Set(answers.map((row) => row["Persona ID"]))];
  const names = checks.map((check, index) => checkColumnName(check, index, topicName));
  return checkFigures(
    answers.map((row) =>
      tallyOfExportedAnswer(
        {
          modelId: row["Model ID"],
          personaId: row["Persona ID"],
          byCheck: Object.fromEntries(checks.map((check, index) => [check.id, row[names[index]] ?? ""])),
        },
        checks,
      ),
    ),
    checks,
    modelIds,
    personaIds,
  );
}

/** The JSON export's checks: each with its label, and the figures. */
export function checkJson(answers: readonly ExportedAnswer[], checks: readonly AnswerCheck[], rankLast: boolean) {
  if (checks.length === 0) return null;
  const topics = new Map(answers.map((answer) => [answer.topicId, answer.topicTitle]));
  return {
    rankLast,
    checks: checks.map((check) => ({ ...check, label: checkLabel(check, (id) => topics.get(id)) })),
    figures: figuresOfAnswers(answers, checks),
  };
}
