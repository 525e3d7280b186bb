import { isTemplateCategory, DEFAULT_TEMPLATE_CATEGORY, type TemplateCategory } from "../../../convex/lib/templates";
import type { TemplateData, TestConfiguration } from "../../../convex/validators";

/** A test's configuration as a template: prompts, personas, topics, evaluation and its models as suggestions. */
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
  };
}

/** The template category a test's task type maps to. */
export function templateCategoryOf(config: TestConfiguration): TemplateCategory {
  return isTemplateCategory(config.taskType) ? config.taskType : DEFAULT_TEMPLATE_CATEGORY;
}
