import { FileUpIcon } from "lucide-react";
import { useRef, useState, type ChangeEvent } from "react";
import { parse as parseYaml } from "yaml";

import { Banner } from "@/components/banner";
import { Button } from "@/components/ui/button";
import { DialogHeading } from "@/components/dialog-heading";
import { Dialog, DialogContent, DialogFooter } from "@/components/ui/dialog";
import type { PromptfooImport } from "../../../convex/lib/promptfoo";
import type { TestConfiguration } from "../../../convex/validators";
import { defaultSetupState } from "./setup-state";

export const PROMPTFOO_NOT_FOUND =
  "None of the chosen files is a promptfoo configuration (a YAML or JSON file with prompts and providers).";

/** What was picked: the promptfoo configuration and the files it names (prompt files, variable files). */
export async function readPromptfooUpload(
  files: readonly File[],
  catalogIds: readonly string[],
): Promise<{ ok: true; result: PromptfooImport; fileName: string } | { ok: false; message: string }> {
  // Loaded when a file is picked: the import's Nunjucks, CSV and YAML parsers stay out of the setup page's bundle.
  const { importPromptfoo, isPromptfooConfig } = await import("../../../convex/lib/promptfoo");
  const texts = await Promise.all(files.map(async (file) => ({ name: file.name, text: await file.text() })));
  const byName: Record<string, string> = {};
  for (const { name, text } of texts) byName[name] = text;
  for (const { name, text } of texts) {
    if (!/\.(ya?ml|json)$/i.test(name)) continue;
    let parsed: unknown;
    try {
      parsed = /\.json$/i.test(name) ? JSON.parse(text) : parseYaml(text);
    } catch (error) {
      if (/\.ya?ml$/i.test(name)) {
        return { ok: false, message: `${name} is not valid YAML: ${error instanceof Error ? error.message : ""}` };
      }
      continue; // A JSON prompt file that is not a config.
    }
    if (!isPromptfooConfig(parsed)) continue;
    return {
      ok: true,
      fileName: name,
      result: importPromptfoo(parsed, { catalogIds, files: byName, configFile: name, configText: text }),
    };
  }
  return { ok: false, message: PROMPTFOO_NOT_FOUND };
}

/** The imported draft as a test configuration the setup state loads (models matched against the catalog there). */
export function importedConfiguration(result: PromptfooImport): TestConfiguration {
  const { configuration } = result;
  const defaults = defaultSetupState();
  return {
    name: configuration.name,
    taskType: "general",
    userPrompt: configuration.userPrompt,
    personas: configuration.personas,
    topics: configuration.topics,
    generatorModels: configuration.generatorModels.map((id) => ({ id, name: id })),
    evaluatorModels: configuration.evaluatorModels.map((id) => ({ id, name: id })),
    responsesPerTopic: configuration.responsesPerTopic,
    rankingPrompt: configuration.rankingPrompt,
    evaluationCriteria: defaults.evaluationCriteria,
    scoringParameters: defaults.scoringParameters,
    checks: configuration.checks,
  };
}

/**
 * "Import promptfoo config": the user picks a promptfoo configuration (with its prompt files);
 * a summary of what would be imported and what would not opens, and only "Use This
 * Configuration" replaces the draft. Nothing is saved anywhere before that.
 */
export function PromptfooImportButton({
  catalogIds,
  replacesData,
  onImport,
}: {
  catalogIds: readonly string[];
  /** The draft already has personas, topics or models: the summary says they are replaced. */
  replacesData: boolean;
  onImport: (configuration: TestConfiguration) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<{ result: PromptfooImport; fileName: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function picked(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    event.target.value = "";
    if (files.length === 0) return;
    setError(null);
    const read = await readPromptfooUpload(files, catalogIds);
    if (read.ok) setPending({ result: read.result, fileName: read.fileName });
    else setError(read.message);
  }

  const summary = pending?.result;
  const configuration = summary?.configuration;
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        accept=".yaml,.yml,.json,.txt,.md,.j2"
        className="hidden"
        aria-label="promptfoo configuration files"
        data-testid="promptfoo-file-input"
        onChange={(event) => void picked(event)}
      />
      <Button type="button" variant="outline" size="sm" onClick={() => input.current?.click()}>
        <FileUpIcon /> Import promptfoo config
      </Button>
      {error && (
        <Banner tone="error">
          <span data-testid="promptfoo-import-error">{error}</span>
        </Banner>
      )}
      <Dialog open={pending !== null} onOpenChange={(open) => !open && setPending(null)}>
        <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl">
          <DialogHeading
            title={<>Import {pending?.fileName}</>}
            description="Check what is imported before it replaces your setup. Nothing is saved until you run or save the test."
          />
          {summary && configuration && (
            <div className="grid gap-4 text-sm" data-testid="promptfoo-import-summary">
              <p>
                {configuration.personas.length} persona{configuration.personas.length === 1 ? "" : "s"},{" "}
                {configuration.topics.length} topic{configuration.topics.length === 1 ? "" : "s"},{" "}
                {configuration.generatorModels.length} generator and {configuration.evaluatorModels.length} evaluator
                model{configuration.evaluatorModels.length === 1 ? "" : "s"}, {configuration.checks.length} check
                {configuration.checks.length === 1 ? "" : "s"}.
              </p>
              {summary.problems.length > 0 && (
                <section aria-labelledby="promptfoo-problems" data-testid="promptfoo-import-problems">
                  <h3 id="promptfoo-problems" className="mb-1 font-medium text-destructive">
                    Cannot be imported as written
                  </h3>
                  <ul className="list-disc space-y-0.5 pl-5">
                    {summary.problems.map((problem, index) => (
                      <li key={`${problem.file}-${index}`}>
                        <span className="font-mono text-xs">
                          {problem.file}
                          {problem.line === undefined ? "" : `:${problem.line}`}
                        </span>
                        : {problem.reason}. {problem.fix}
                      </li>
                    ))}
                  </ul>
                </section>
              )}
              <section aria-labelledby="promptfoo-imported">
                <h3 id="promptfoo-imported" className="mb-1 font-medium">
                  Imported
                </h3>
                {summary.imported.length === 0 ? (
                  <p className="text-muted-foreground">Nothing could be imported.</p>
                ) : (
                  <ul className="list-disc space-y-0.5 pl-5">
                    {summary.imported.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                )}
              </section>
              <section aria-labelledby="promptfoo-not-imported">
                <h3 id="promptfoo-not-imported" className="mb-1 font-medium">
                  Not imported
                </h3>
                {summary.notImported.length === 0 ? (
                  <p className="text-muted-foreground">Everything was imported.</p>
                ) : (
                  <ul className="list-disc space-y-0.5 pl-5">
                    {summary.notImported.map((item, index) => (
                      <li key={`${item.item}-${index}`}>
                        <span className="font-mono text-xs">{item.item}</span>: {item.reason}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              {configuration.evaluatorModels.length === 0 && (
                <p className="text-muted-foreground">
                  The configuration names no grader model: choose the evaluator models after importing.
                </p>
              )}
              {replacesData && (
                <p className="rounded-md bg-muted/60 px-3 py-2 font-medium">
                  Your current personas, topics, models and checks will be replaced.
                </p>
              )}
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setPending(null)}>
              Cancel
            </Button>
            <Button
              type="button"
              disabled={!configuration || configuration.topics.length === 0 || (summary?.problems.length ?? 0) > 0}
              onClick={() => {
                if (summary) onImport(importedConfiguration(summary));
                setPending(null);
              }}
            >
              Use This Configuration
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
