// How a test is named in the results, history and shared headers.
import { titleCase } from "./utils";

/** '2 models · 1 persona · 3 topics'. */
export function countsLabel(config: { generatorModels: unknown[]; personas: unknown[]; topics: unknown[] }): string {
  const part = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
  return [
    part(config.generatorModels.length, "model"),
    part(config.personas.length, "persona"),
    part(config.topics.length, "topic"),
  ].join(" · ");
}

/** 'customer-service' → 'Customer Service'. */
export const taskTypeLabel = titleCase;
