// promptfoo configurations (promptfooconfig.yaml, already parsed) turned into a ModelJury test
// configuration, for the command-line runner and the setup page's upload. Pure: the files a
// config names are read through a PromptfooFiles the caller gives (the disk for the CLI, the
// picked files for the upload), by their path relative to the config's folder.
//
// It renders what promptfoo renders, following promptfoo's own loader (src/util/testCaseReader.ts,
// src/csv.ts, src/prompts/, src/evaluatorHelpers.ts renderPrompt):
// - tests: inline test cases, files (CSV rows, JSON, JSONL, YAML) and globs of them, each row a
//   test case; a test's `vars` lists expand into every combination, a `file://` var glob into one
//   case per file; defaultTest's vars under each test's;
// - prompts: text (a .txt file split on "---" lines), chat messages (a JSON or YAML file), a
//   list, labelled objects or the map form { path: label }; rendered with Nunjucks (the
//   `nunjucks` package, as promptfoo configures it: no autoescape, undefined renders empty, the
//   `load` filter); a chat prompt's system message is the persona, its user message the topic;
// - prompts × test cases → topics; defaultTest's assertions join each test's; what ModelJury's
//   checks express → checks (per topic when the test's), `llm-rubric` and the other model-graded
//   assertions → the evaluation prompt, each test's rubric named with its topic;
// - providers → generator models; the grader (`defaultTest.options.provider`, an id, `{ id }` or
//   `{ text, embedding }`) → the evaluator model.
// Anything that would change what runs (a prompt function, a missing file, too many topics, a
// text still holding `{{`, `{%` or `file://`) is a problem: the import refuses, naming the file,
// line, reason and fix. What only narrows the judging (an assertion kind ModelJury has no check
// for, a provider not in the catalog) is left out and listed with its reason.
export { catalogIdOf } from "./models";
export { filesFromRecord } from "./files";
export { DEFAULT_PERSONA, importPromptfoo, isPromptfooConfig } from "./import";
export type { ImportProblem, PromptfooFiles, PromptfooImport } from "./types";
