// The evaluation criteria (spec part 1 §3): the one list the validators, the shared types, the
// judge prompts, the built-in templates, the dev gateway and the UI derive from. Adding a
// criterion is one entry here plus its copy; a test (dev/gateway/contract.test.ts) shows the dev
// gateway scores every criterion listed. Plain data: nothing here imports server code.

interface CriterionEntry {
  /** How the setup page, the results and the exports name it. */
  readonly label: string;
  /** The question a judge answers for it: shown under its checkbox and sent in the judge prompts. */
  readonly description: string;
  /** Ticked on a new test (spec part 1 §3: only accuracy). */
  readonly selectedByDefault: boolean;
}

/** In their canonical order: the setup page's checkboxes, the judge prompts' lists, the results' columns. */
export const CRITERIA = {
  accuracy: {
    label: "Accuracy",
    description: "Is the content correct and free of invented facts?",
    selectedByDefault: true,
  },
  creativity: {
    label: "Creativity",
    description: "Is it original, fresh and engaging rather than generic?",
    selectedByDefault: false,
  },
  clarity: {
    label: "Clarity",
    description: "Is it clear, well organised and easy to follow?",
    selectedByDefault: false,
  },
  relevance: {
    label: "Relevance",
    description: "Does it address exactly what was asked?",
    selectedByDefault: false,
  },
  style: {
    label: "Style",
    description: "Does its tone and voice fit the intended persona and audience?",
    selectedByDefault: false,
  },
} as const satisfies Readonly<Record<string, CriterionEntry>>;

export type EvaluationCriterion = keyof typeof CRITERIA;
/** Which criteria a test (or template) scores on: every criterion, ticked or not. */
export type EvaluationCriteria = Readonly<Record<EvaluationCriterion, boolean>>;

export const EVALUATION_CRITERIA = Object.keys(CRITERIA) as readonly EvaluationCriterion[];

export function isEvaluationCriterion(key: string): key is EvaluationCriterion {
  return Object.hasOwn(CRITERIA, key);
}

/** Every criterion, ticked when listed: the way a template says which criteria it scores on. */
export function criteriaSelection(selected: readonly EvaluationCriterion[]): EvaluationCriteria {
  return Object.fromEntries(
    EVALUATION_CRITERIA.map((criterion) => [criterion, selected.includes(criterion)]),
  ) as Record<EvaluationCriterion, boolean>;
}

/** The selected criteria in their canonical order. */
export function selectedCriteria(criteria: EvaluationCriteria | undefined): EvaluationCriterion[] {
  if (!criteria) return [];
  return EVALUATION_CRITERIA.filter((criterion) => criteria[criterion]);
}

export const DEFAULT_EVALUATION_CRITERIA: EvaluationCriteria = criteriaSelection(
  EVALUATION_CRITERIA.filter((criterion) => CRITERIA[criterion].selectedByDefault),
);

/**
 * A criterion as the UI and the exports name it: 'accuracy' → 'Accuracy'. A key a stored
 * judgement carries that this list no longer has is shown capitalised.
 */
export function criterionLabel(key: string): string {
  if (isEvaluationCriterion(key)) return CRITERIA[key].label;
  return key.length === 0 ? key : key[0]!.toUpperCase() + key.slice(1);
}

/** The criteria in a sentence: "accuracy, creativity, clarity, relevance and style". */
export function criteriaInWords(): string {
  const words = [...EVALUATION_CRITERIA];
  const last = words.pop() ?? "";
  return words.length === 0 ? last : `${words.join(", ")} and ${last}`;
}
