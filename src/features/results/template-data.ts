import { checksToTemplate } from "../../../convex/lib/checkProblems";
import { isTemplateCategory, DEFAULT_TEMPLATE_CATEGORY, type TemplateCategory } from "../../../convex/lib/templates";
import type { TemplateData, TestConfiguration } from "../../../convex/validators";

/**
 * A test's configuration as a template: prompts, personas, topics, evaluation, checks, its run
 * settings (stop when settled, repeats) and its models as suggestions.
 */
export function templateDataOf(config: TestConfiguration): TemplateData {
  return {
    userPrompt: config.userPrompt,
    personas: config.personas.map(({ name, description, systemPrompt }) => ({ name, description, systemPrompt })),
    topics: config.topics.map(({ title, description, prompt }) => ({ title, description, prompt })),
    evaluationConfig: {
      rankingPrompt: config.rankingPrompt,
      evaluationCriteria: { ...config.evaluationCriteria },
      scoringParameters: { ...config.scoringParameters },
    },
    suggestedModels: {
      generators: config.generatorModels.map((model) => model.id),
      evaluators: config.evaluatorModels.map((model) => model.id),
    },
    responsesPerTopic: config.responsesPerTopic,
    ...(config.checks === undefined || config.checks.length === 0
      ? {}
      : {
          checks: checksToTemplate(
            config.checks,
            config.topics.map((topic) => topic.id),
          ),
        }),
    ...(config.failedChecksRankLast ? { failedChecksRankLast: true } : {}),
    // The run settings a rerun keeps: "stop when settled" (each test draws its own seed) and repeats.
    ...(config.stopWhenSettled === undefined ? {} : { stopWhenSettled: withoutSeed(config.stopWhenSettled) }),
    ...(config.repeats === undefined || config.repeats === 1 ? {} : { repeats: config.repeats }),
  };
}

function withoutSeed({ seed: _seed, ...setting }: NonNullable<TestConfiguration["stopWhenSettled"]>) {
  return setting;
}

/** The template category a test's task type maps to. */
export function templateCategoryOf(config: TestConfiguration): TemplateCategory {
  return isTemplateCategory(config.taskType) ? config.taskType : DEFAULT_TEMPLATE_CATEGORY;
}
