// What is wrong with a test's or a template's checks, field by field, and a test's checks as a
// template stores them (topic by place) and back.
import type { AnswerCheck, TemplateCheck } from "../validators";
import { CHECK_LIMITS } from "./limits";
import type { Problem } from "./types";
import { formatDollars, formatSeconds, takesValue } from "./checks";
import { compilePattern, compileSchema } from "./checkCompile";

function isWhole(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value);
}

/**
 * Everything wrong with a test's checks, field by field ("checks.2.value"); empty when they can
 * run. `topicIds` are the test's topics: a check scoped to a topic must name one of them.
 */
export function checkProblems(
  checks: readonly AnswerCheck[] | undefined,
  topicIds: readonly (string | undefined)[],
  fieldPrefix = "checks",
): Problem[] {
  const problems: Problem[] = [];
  if (!checks || checks.length === 0) return problems;
  if (checks.length > CHECK_LIMITS.maxChecks) {
    problems.push({ field: fieldPrefix, message: `Add at most ${CHECK_LIMITS.maxChecks} checks.` });
    return problems;
  }
  const ids = checks.map((check) => check.id);
  if (ids.some((id) => !id.trim() || id.length > 100) || new Set(ids).size !== ids.length) {
    problems.push({ field: fieldPrefix, message: "Each check needs its own id." });
  }
  checks.forEach((check, index) => {
    const field = (name: string) => `${fieldPrefix}.${index}.${name}`;
    const push = (name: string, message: string) =>
      problems.push({ field: field(name), message: `Check ${index + 1}: ${message}` });
    const value = check.value ?? "";
    if (takesValue(check.kind)) {
      const max = check.kind === "jsonSchema" ? CHECK_LIMITS.maxSchemaLength : CHECK_LIMITS.maxTextLength;
      if (value === "") {
        push(
          "value",
          check.kind === "regex"
            ? "Enter a pattern."
            : check.kind === "jsonSchema"
              ? "Enter a JSON Schema."
              : "Enter the text to look for.",
        );
      } else if (value.length > max) {
        push("value", `must be at most ${max.toLocaleString("en-US")} characters.`);
      } else if (check.kind === "regex") {
        const compiled = compilePattern(value);
        if (!compiled.ok) push("value", `This pattern does not compile: ${compiled.message}`);
      } else if (check.kind === "jsonSchema") {
        const compiled = compileSchema(value);
        if (!compiled.ok) push("value", compiled.message);
      }
    }
    if (check.kind === "length") {
      if (check.min === undefined && check.max === undefined) push("min", "Enter a minimum, a maximum or both.");
      for (const bound of ["min", "max"] as const) {
        const number = check[bound];
        if (number !== undefined && !(isWhole(number) && number >= 0 && number <= CHECK_LIMITS.maxLength)) {
          push(
            bound,
            `The ${bound === "min" ? "minimum" : "maximum"} must be a whole number from 0 to ${CHECK_LIMITS.maxLength.toLocaleString("en-US")}.`,
          );
        }
      }
      if (isWhole(check.min) && isWhole(check.max) && check.min > check.max) {
        push("max", "The maximum must not be below the minimum.");
      }
    }
    if (check.kind === "latency" || check.kind === "cost") {
      const limit = check.kind === "latency" ? CHECK_LIMITS.maxLatencyMs : CHECK_LIMITS.maxCostUsd;
      const number = check.max;
      if (number === undefined || !Number.isFinite(number) || number <= 0 || number > limit) {
        push(
          "max",
          check.kind === "latency"
            ? `The latency must be above 0 and at most ${formatSeconds(limit)}.`
            : `The cost must be above $0 and at most ${formatDollars(limit)}.`,
        );
      }
    }
    if (check.topicId !== undefined && !topicIds.includes(check.topicId)) {
      push("topicId", "its topic is not part of this test.");
    }
  });
  return problems;
}

/** A template's checks: the same rules, a topic named by its place in the template's topics. */
export function templateCheckProblems(checks: readonly TemplateCheck[] | undefined, topicCount: number): Problem[] {
  if (!checks) return [];
  const asTestChecks = checks.map(({ topicIndex, ...check }) =>
    topicIndex === undefined ? check : { ...check, topicId: String(topicIndex) },
  );
  const topicIds = Array.from({ length: topicCount }, (_, index) => String(index));
  return checkProblems(asTestChecks, topicIds, "templateData.checks");
}

/** A test's checks as a template stores them (topic by place), and back. */
export function checksToTemplate(
  checks: readonly AnswerCheck[] | undefined,
  topicIds: readonly (string | undefined)[],
): TemplateCheck[] {
  return (checks ?? []).flatMap(({ topicId, ...check }) => {
    if (topicId === undefined) return [check];
    const topicIndex = topicIds.indexOf(topicId);
    return topicIndex < 0 ? [] : [{ ...check, topicIndex }];
  });
}

export function checksFromTemplate(
  checks: readonly TemplateCheck[] | undefined,
  topicIds: readonly string[],
): AnswerCheck[] {
  return (checks ?? []).flatMap(({ topicIndex, ...check }) => {
    if (topicIndex === undefined) return [check];
    const topicId = topicIds[topicIndex];
    return topicId === undefined ? [] : [{ ...check, topicId }];
  });
}
