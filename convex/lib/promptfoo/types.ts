// The import's result and options: the configuration it makes, what it left out, its problems.

/** A check as the test configuration stores it (validators.ts answerCheck). */
export interface ImportedCheck {
  id: string;
  kind: "contains" | "notContains" | "regex" | "startsWith" | "json" | "jsonSchema" | "length" | "latency" | "cost";
  value?: string;
  caseSensitive?: boolean;
  unit?: "words" | "characters";
  min?: number;
  max?: number;
  topicId?: string;
}

export interface ImportedConfiguration {
  name: string;
  userPrompt: string;
  personas: { id: string; name: string; description: string; systemPrompt: string }[];
  topics: { id: string; title: string; description: string; prompt: string }[];
  generatorModels: string[];
  evaluatorModels: string[];
  responsesPerTopic: number;
  rankingPrompt: string;
  checks: ImportedCheck[];
}

export interface NotImported {
  /** What was left out, as the config names it ("assert javascript", "provider bedrock:…"). */
  item: string;
  reason: string;
}

/** Why the config cannot be imported as promptfoo would run it: the import stops on any. */
export interface ImportProblem {
  /** The file, relative to the config's folder (the config's own name for the config). */
  file: string;
  /** 1-based line in that file, when known. */
  line?: number;
  reason: string;
  fix: string;
}

/** A rubric the judges apply, with the topics it belongs to (none: every topic). */
export interface ImportedRubric {
  text: string;
  topicIds: string[];
}

export interface PromptfooImport {
  configuration: ImportedConfiguration;
  /** What was imported, one plain line each, for the summary shown before anything is saved. */
  imported: string[];
  notImported: NotImported[];
  problems: ImportProblem[];
  rubrics: ImportedRubric[];
  /** How many test cases promptfoo would run (after vars expansion), before × prompts. */
  testCaseCount: number;
  /** How many assertions promptfoo would evaluate: each topic's (prompt × test case) defaultTest and test assertions. */
  assertionCount: number;
}

/** The files a config names, by their path relative to the config's folder. */
export interface PromptfooFiles {
  /** The file's text, or undefined when there is no such file. */
  read(path: string): string | undefined;
  /** The files matching a glob, relative to the config's folder, sorted. */
  glob(pattern: string): string[];
}

export interface PromptfooImportOptions {
  /** Gateway ids of the catalog's models; null when there is no catalog to match (providers map to their likely id). */
  catalogIds: readonly string[] | null;
  /** The files the config names; a record is matched by path or, failing that, base name. */
  files?: PromptfooFiles | Readonly<Record<string, string>>;
  /** The config's file name, for problems' locations. */
  configFile?: string;
  /** The config's text, for problems' line numbers. */
  configText?: string;
}
