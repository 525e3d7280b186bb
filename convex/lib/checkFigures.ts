// Pass rates of a test's checks: per model overall, per check and per persona, each with its 95%
// Wilson score interval. The pipeline stores one tally per gateway call (core/checks.ts); an
// exported row is a tally of one answer, so the exports rebuild the same figures.
import { appliesTo, type AnswerCheck, type AnswerCheckResult } from "./checks";

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/**
 * Wilson score interval of `passed` successes in `total` trials (Wilson 1927): the centre
 * (p + z²/2n) / (1 + z²/n) ± z·√(p(1−p)/n + z²/4n²) / (1 + z²/n). Null when there are no trials.
 */
export function wilsonInterval(passed: number, total: number, z = Z_95): Interval | null {
  if (total <= 0) return null;
  const p = passed / total;
  const z2 = z * z;
  const denominator = 1 + z2 / total;
  const centre = (p + z2 / (2 * total)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Answers of one model × persona (× topic) counted together. */
export interface CheckTally {
  readonly modelId: string;
  readonly personaId: string;
  /** Answers at least one check applied to. */
  readonly answers: number;
  /** Of those, answers that passed every check that applied. */
  readonly passed: number;
  readonly byCheck: readonly { readonly checkId: string; readonly applied: number; readonly passed: number }[];
}

/** The tally of answers checked together (one gateway call's answers). */
export function tallyOf(modelId: string, personaId: string, results: readonly AnswerCheckResult[]): CheckTally {
  const byCheck = new Map<string, { applied: number; passed: number }>();
  let answers = 0;
  let passed = 0;
  for (const result of results) {
    if (result.applied.length === 0) continue;
    answers += 1;
    if (result.failures.length === 0) passed += 1;
    const failed = new Set(result.failures.map((failure) => failure.checkId));
    for (const checkId of result.applied) {
      const entry = byCheck.get(checkId) ?? { applied: 0, passed: 0 };
      entry.applied += 1;
      if (!failed.has(checkId)) entry.passed += 1;
      byCheck.set(checkId, entry);
    }
  }
  return {
    modelId,
    personaId,
    answers,
    passed,
    byCheck: [...byCheck].map(([checkId, entry]) => ({ checkId, ...entry })),
  };
}

export interface PassRate {
  readonly answers: number;
  readonly passed: number;
  /** 0–1; null with no answers. */
  readonly rate: number | null;
  readonly interval: Interval | null;
}

function passRate(passed: number, answers: number): PassRate {
  return { answers, passed, rate: answers > 0 ? passed / answers : null, interval: wilsonInterval(passed, answers) };
}

export interface CheckFigures {
  readonly checks: readonly { readonly id: string }[];
  readonly models: readonly {
    readonly modelId: string;
    readonly overall: PassRate;
    readonly byCheck: readonly ({ readonly checkId: string } & PassRate)[];
    readonly byPersona: readonly ({ readonly personaId: string } & PassRate)[];
  }[];
}

/** The figures of a test's tallies, models and personas in the test's order. */
export function checkFigures(
  tallies: readonly CheckTally[],
  checks: readonly Pick<AnswerCheck, "id">[],
  modelIds: readonly string[],
  personaIds: readonly string[],
): CheckFigures {
  const sum = (rows: readonly CheckTally[]) =>
    rows.reduce((total, row) => ({ answers: total.answers + row.answers, passed: total.passed + row.passed }), {
      answers: 0,
      passed: 0,
    });
  return {
    checks: checks.map((check) => ({ id: check.id })),
    models: modelIds.map((modelId) => {
      const rows = tallies.filter((tally) => tally.modelId === modelId);
      const overall = sum(rows);
      return {
        modelId,
        overall: passRate(overall.passed, overall.answers),
        byCheck: checks.map((check) => {
          let applied = 0;
          let passed = 0;
          for (const row of rows) {
            const entry = row.byCheck.find((item) => item.checkId === check.id);
            applied += entry?.applied ?? 0;
            passed += entry?.passed ?? 0;
          }
          return { checkId: check.id, ...passRate(passed, applied) };
        }),
        byPersona: personaIds.map((personaId) => {
          const persona = sum(rows.filter((row) => row.personaId === personaId));
          return { personaId, ...passRate(persona.passed, persona.answers) };
        }),
      };
    }),
  };
}

/**
 * One answer as the exports carry it (its model, persona, topic, and for each check "pass",
 * "fail" or "" when the check does not apply to its topic) back to a tally, so the exported rows
 * rebuild every figure.
 */
export function tallyOfExportedAnswer(
  row: { readonly modelId: string; readonly personaId: string; readonly byCheck: Readonly<Record<string, string>> },
  checks: readonly AnswerCheck[],
): CheckTally {
  const applied = checks.filter((check) => row.byCheck[check.id] === "pass" || row.byCheck[check.id] === "fail");
  const failures = applied
    .filter((check) => row.byCheck[check.id] === "fail")
    .map((check) => ({ checkId: check.id, reason: "" }));
  return tallyOf(row.modelId, row.personaId, [{ applied: applied.map((check) => check.id), failures }]);
}

/** For an exported answer: each check's column ("pass", "fail", or "" when it does not apply). */
export function checkColumnsOf(
  checks: readonly AnswerCheck[],
  answer: { readonly topicId: string; readonly checkFailures?: readonly { readonly checkId: string }[] },
): Record<string, string> {
  const failed = new Set((answer.checkFailures ?? []).map((failure) => failure.checkId));
  return Object.fromEntries(
    checks.map((check) => [check.id, appliesTo(check, answer.topicId) ? (failed.has(check.id) ? "fail" : "pass") : ""]),
  );
}
