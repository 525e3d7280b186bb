// Starting points from the address: ?template={id}, ?rerun={testId} and ?payment=cancelled.
// Each is acted on once, when the catalog is ready, and then removed from the address so a
// reload does not overwrite the draft again.
import { useNavigate } from "@tanstack/react-router";
import { useConvex } from "convex/react";
import { useEffect, useRef } from "react";
import { notify } from "./notify";

import { errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { builtinTemplateById } from "../../../convex/lib/builtins";
import type { TestConfiguration } from "../../../convex/validators";
import type { SetupSearch } from "./search";
import type { TemplateSource } from "./setup-state";
import { builtinSource, savedSource } from "./template-sources";
import type { Catalog } from "./use-catalog";

export const TEMPLATE_NOT_FOUND = "That template was not found, or it is not shared with you.";
export const RERUN_NOT_FOUND = "The test to rerun could not be loaded.";
export const PAYMENT_CANCELLED = "Payment cancelled. Your setup is as you left it.";

interface StartFromOptions {
  search: SetupSearch;
  catalog: Catalog;
  requestApply: (source: TemplateSource) => void;
  prefillRerun: (configuration: TestConfiguration, catalogIds: ReadonlySet<string>, rerunOf?: string) => void;
}

export function useStartFrom({ search, catalog, requestApply, prefillRerun }: StartFromOptions) {
  const convex = useConvex();
  const navigate = useNavigate();
  const handled = useRef<string | null>(null);
  // The async answers below apply to the page as it is then, not as it was when they were asked.
  const latest = useRef({ catalog, requestApply, prefillRerun });
  useEffect(() => {
    latest.current = { catalog, requestApply, prefillRerun };
  });

  const { template, rerun, judges, payment } = search;
  const key = [template, rerun, judges, payment].join("|");
  const hasWork = Boolean(template || rerun || payment);

  useEffect(() => {
    if (!hasWork || !catalog.isReady || handled.current === key) return;
    handled.current = key;
    void navigate({ to: "/dashboard/setup", search: {}, replace: true });

    if (payment === "cancelled") notify.info(PAYMENT_CANCELLED);

    if (rerun) {
      convex
        // The results' header carries the configuration (the monitor's does not while a test runs).
        .query(api.results.get, { testId: rerun })
        .then(({ test }) => {
          latest.current.prefillRerun(withJudges(test.configuration, judges), latest.current.catalog.ids, test._id);
          notify.success(`Loaded "${test.name}" for a rerun${judges ? " with the advised jury" : ""}`);
        })
        .catch(() => notify.error(RERUN_NOT_FOUND));
      return;
    }

    if (template) {
      const builtin = builtinTemplateById(template);
      if (builtin) {
        latest.current.requestApply(builtinSource(builtin));
        return;
      }
      convex
        .query(api.templates.get, { templateId: template })
        .then((saved) => {
          if (saved) latest.current.requestApply(savedSource(saved));
          else notify.error(TEMPLATE_NOT_FOUND);
        })
        .catch((error: unknown) => notify.error(errorMessage(error, TEMPLATE_NOT_FOUND)));
    }
  }, [hasWork, key, catalog.isReady, template, rerun, judges, payment, convex, navigate]);
}

/** The configuration with only the listed judges (comma-separated ids) of its own; all when none match. */
export function withJudges(configuration: TestConfiguration, judges: string | undefined): TestConfiguration {
  if (!judges) return configuration;
  const kept = new Set(judges.split(","));
  const evaluatorModels = configuration.evaluatorModels.filter((model) => kept.has(model.id));
  return evaluatorModels.length === 0 ? configuration : { ...configuration, evaluatorModels };
}
