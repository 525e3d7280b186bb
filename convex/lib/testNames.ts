// What a test's pages name things by, taken from its configuration once (its names row,
// tables/testNames.ts): pure, so the row written at creation, the fallback for a test written
// before names rows existed, and the maps the pages' queries look names up in agree.
import type { Infer } from "convex/values";
import type { testConfiguration } from "../validators";
import type { Names } from "./resultsFigures";

type Configuration = Infer<typeof testConfiguration>;

/** A names row's fields but its test's id. */
export interface TestNames {
  generators: { id: string; name: string }[];
  judges: { id: string; name: string }[];
  personas: { id: string; name: string }[];
  topics: { id: string; title: string }[];
  stopWhenSettled?: Configuration["stopWhenSettled"];
}

/** The names a configuration gives its models, judges, personas and topics (and its settle question). */
export function testNamesOf(configuration: Configuration): TestNames {
  const named = ({ id, name }: { id: string; name: string }) => ({ id, name });
  return {
    generators: configuration.generatorModels.map(named),
    judges: configuration.evaluatorModels.map(named),
    personas: configuration.personas.map(named),
    topics: configuration.topics.map(({ id, title }) => ({ id, title })),
    ...(configuration.stopWhenSettled === undefined ? {} : { stopWhenSettled: configuration.stopWhenSettled }),
  };
}

/** The lookups answers and judgements are named with: the same as lib/resultsFigures.ts namesOf of the configuration. */
export function nameMapsOf(names: TestNames): Names {
  return {
    model: new Map([...names.generators, ...names.judges].map((model) => [model.id, model.name])),
    persona: new Map(names.personas.map((persona) => [persona.id, persona.name])),
    topic: new Map(names.topics.map((topic) => [topic.id, topic.title])),
  };
}
