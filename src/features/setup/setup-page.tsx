import { useMutation } from "convex/react";
import {
  AlertTriangleIcon,
  GiftIcon,
  KeyRoundIcon,
  LayoutTemplateIcon,
  LibraryIcon,
  RotateCcwIcon,
} from "lucide-react";
import { useEffect, useState } from "react";
import { NOTIFY_OPTIONS, notify } from "./notify";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { api } from "../../../convex/_generated/api";
import type { Id } from "../../../convex/_generated/dataModel";
import type { BuiltinTemplate, ModelBundle } from "../../../convex/lib/builtins";
import { ConfirmDialog, DestructiveConfirmDialog } from "@/components/confirm-dialog";
import { EvaluationSection } from "./evaluation-section";
import { ChecksSection } from "./checks-section";
import { ModelBundlesCard, ModelBundlesDialog } from "./model-bundles";
import { ModelPickerSection } from "./model-picker-section";
import { PaymentDialog } from "./payment-dialog";
import { PersonasSection } from "./personas-section";
import { PromptfooImportButton } from "./promptfoo-import";
import { SaveTemplateDialog } from "@/components/save-template-dialog";
import type { SetupSearch } from "./search";
import { SetupBar } from "./setup-bar";
import { SetupFaq } from "./setup-faq";
import { hasExistingData, inCatalog, templateDataOfState, type TemplateSource } from "./setup-state";
import { TemplateLibraryDialog } from "./template-library-dialog";
import { TemplateSection } from "./template-section";
import { builtinSource, savedSource } from "./template-sources";
import { TestConfigurationSection } from "./test-configuration-section";
import { TopicsSection } from "./topics-section";
import { useCatalog } from "./use-catalog";
import { useRunTest, type PaymentMode } from "./use-run-test";
import { useSetupPrice } from "./use-setup-price";
import { useSetupState } from "./use-setup-state";
import { useStartFrom } from "./use-start-from";

export const REPLACE_TITLE = "Replace Existing Data";

/** The Test Setup page (spec part 1 §2): seven sections, the sticky bar and the FAQ. */
export function SetupPage({ search }: { search: SetupSearch }) {
  const [state, actions] = useSetupState();
  const catalog = useCatalog();
  const price = useSetupPrice(state, catalog);
  const runner = useRunTest(price.configuration, price.quote.priceCents, state.rerunOf);
  const recordUse = useMutation(api.templates.recordUse);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [bundlesOpen, setBundlesOpen] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);
  const [pendingApply, setPendingApply] = useState<TemplateSource | null>(null);
  /** 'Change Template' shows section 1 again while a template is applied. */
  const [templatePickerShown, setTemplatePickerShown] = useState(false);

  // Selections the catalog no longer lists cannot run; drop them once the catalog is current.
  const { models, isRefreshing, ids: catalogIds } = catalog;
  useEffect(() => {
    if (models && models.length > 0 && !isRefreshing) actions.keepModelsIn(catalogIds);
  }, [models, isRefreshing, catalogIds, actions]);

  function apply(source: TemplateSource) {
    actions.applyTemplate(source, catalog.ids);
    setTemplatePickerShown(false);
    if (source.kind === "saved") {
      // Spec: applying proceeds even when counting the use fails.
      recordUse({ templateId: source.id as Id<"templates"> }).catch(() => undefined);
    }
    notify.success(`Template "${source.name}" applied`);
  }

  // A template or bundle chosen before the model list has arrived waits for it: its models
  // can only be matched against the catalog once the catalog is here.
  const [waitingForCatalog, setWaitingForCatalog] = useState<
    { kind: "template"; source: TemplateSource } | { kind: "bundle"; bundle: ModelBundle } | null
  >(null);

  function requestApply(source: TemplateSource) {
    if (!catalog.isReady) setWaitingForCatalog({ kind: "template", source });
    else if (hasExistingData(state)) setPendingApply(source);
    else apply(source);
  }

  function applyBundle(bundle: ModelBundle) {
    if (!catalog.isReady) {
      setBundlesOpen(false);
      setWaitingForCatalog({ kind: "bundle", bundle });
      return;
    }
    const generators = inCatalog(bundle.generatorModelIds, catalog.ids);
    const evaluators = inCatalog(bundle.evaluatorModelIds, catalog.ids);
    setBundlesOpen(false);
    if (generators.length === 0 && evaluators.length === 0) {
      notify.error(`None of the models of ${bundle.name} are in the current model list.`);
      return;
    }
    actions.setModels("generator", generators);
    actions.setModels("evaluator", evaluators);
    notify.success(
      `${bundle.name} applied: ${generators.length} generator${generators.length === 1 ? "" : "s"}, ` +
        `${evaluators.length} evaluator${evaluators.length === 1 ? "" : "s"}`,
    );
  }

  useStartFrom({ search, catalog, requestApply, prefillRerun: actions.prefillRerun });

  useEffect(() => {
    if (!catalog.isReady || !waitingForCatalog) return;
    setWaitingForCatalog(null);
    if (waitingForCatalog.kind === "template") requestApply(waitingForCatalog.source);
    else applyBundle(waitingForCatalog.bundle);
    // requestApply and applyBundle read the current render's state; only the catalog's arrival matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [catalog.isReady, waitingForCatalog]);

  const showTemplatePicker = !state.appliedTemplate || templatePickerShown;

  return (
    <>
      <div className="space-y-6 pb-44">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="space-y-1">
            <h1 className="text-3xl font-bold tracking-tight">Test Setup</h1>
            <p className="text-muted-foreground">
              Choose the models, personas and topics to compare, and how the evaluator models judge the answers.
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <PromptfooImportButton
              catalogIds={[...catalogIds]}
              replacesData={hasExistingData(state)}
              onImport={(configuration) => {
                // Loaded as a rerun is (models matched against the catalog), under the imported name.
                actions.prefillRerun(configuration, catalogIds);
                actions.update({ name: configuration.name });
              }}
            />
            {(state.sectionsVisible || hasExistingData(state)) && (
              <Button type="button" variant="ghost" size="sm" onClick={() => setResetOpen(true)}>
                <RotateCcwIcon /> Start Over
              </Button>
            )}
          </div>
        </div>

        <PaymentModeNotice mode={runner.paymentMode} />

        {state.appliedTemplate && !templatePickerShown && (
          <div
            className="flex flex-wrap items-center gap-3 rounded-xl border bg-muted/40 px-4 py-3 text-sm"
            data-testid="applied-template"
          >
            <LayoutTemplateIcon aria-hidden="true" className="size-4 text-primary" />
            <span>
              Template applied: <span className="font-medium">{state.appliedTemplate.name}</span>
            </span>
            <div className="ml-auto flex gap-2">
              <Button type="button" size="sm" variant="outline" onClick={() => setTemplatePickerShown(true)}>
                Change Template
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => setLibraryOpen(true)}>
                <LibraryIcon /> Template Library
              </Button>
            </div>
          </div>
        )}

        {showTemplatePicker && (
          <TemplateSection
            catalog={catalog}
            onApply={(template: BuiltinTemplate) => requestApply(builtinSource(template))}
            onChooseCustom={actions.startCustom}
            onOpenLibrary={() => setLibraryOpen(true)}
          />
        )}

        {state.sectionsVisible ? (
          <>
            <TestConfigurationSection state={state} actions={actions} />
            <PersonasSection state={state} actions={actions} />
            <TopicsSection state={state} actions={actions} />
            <ModelBundlesCard onBrowse={() => setBundlesOpen(true)} />
            <ModelPickerSection
              role="generator"
              catalog={catalog}
              selectedIds={state.generatorModelIds}
              configuration={price.configuration}
              onToggle={(id) => actions.toggleModel("generator", id)}
              onClear={() => actions.setModels("generator", [])}
            />
            <ModelPickerSection
              role="evaluator"
              catalog={catalog}
              selectedIds={state.evaluatorModelIds}
              configuration={price.configuration}
              onToggle={(id) => actions.toggleModel("evaluator", id)}
              onClear={() => actions.setModels("evaluator", [])}
            />
            <EvaluationSection state={state} actions={actions} />
            <ChecksSection state={state} actions={actions} />
          </>
        ) : (
          <p className="rounded-xl border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
            Apply a template above, or choose the Custom category to set up your own test.
          </p>
        )}

        <SetupFaq />
      </div>

      <SetupBar
        state={state}
        price={price}
        starting={runner.starting}
        ready={runner.paymentMode !== undefined}
        paymentMode={runner.paymentMode}
        onSaveTemplate={() => setSaveOpen(true)}
        onRun={runner.run}
      />

      <TemplateLibraryDialog
        open={libraryOpen}
        onOpenChange={setLibraryOpen}
        onApply={(template) => {
          setLibraryOpen(false);
          requestApply(savedSource(template));
        }}
      />
      <ModelBundlesDialog
        open={bundlesOpen}
        onOpenChange={setBundlesOpen}
        catalog={catalog}
        onApply={applyBundle}
        setup={price.configuration}
      />
      <SaveTemplateDialog
        open={saveOpen}
        onOpenChange={setSaveOpen}
        templateData={templateDataOfState(state)}
        toastOptions={NOTIFY_OPTIONS}
      />
      <PaymentDialog
        state={runner.payment}
        configuration={price.configuration}
        priceCents={price.quote.priceCents}
        queries={price.queries}
        onPay={runner.pay}
        onClose={runner.closePayment}
      />
      <ConfirmDialog
        open={pendingApply !== null}
        onOpenChange={(open) => !open && setPendingApply(null)}
        title={REPLACE_TITLE}
        description="Applying this template replaces your current personas, topics, selected models and evaluation settings."
        subject={pendingApply?.name}
        confirmText="Replace"
        icon={<AlertTriangleIcon aria-hidden="true" className="size-5 text-amber-500" />}
        onConfirm={() => {
          if (pendingApply) apply(pendingApply);
        }}
      />
      <DestructiveConfirmDialog
        open={resetOpen}
        onOpenChange={setResetOpen}
        title="Start Over"
        description="Clear this setup: its name, personas, topics, selected models and settings."
        confirmText="Start Over"
        onConfirm={() => {
          actions.reset();
          setTemplatePickerShown(false);
        }}
      />
    </>
  );
}

function PaymentModeNotice({ mode }: { mode: PaymentMode | undefined }) {
  if (mode === "free") {
    return (
      <Alert role="status" data-testid="payment-mode-notice">
        <GiftIcon aria-hidden="true" />
        <AlertTitle>Runs are free on this deployment</AlertTitle>
        <AlertDescription>No payment is needed: Run Test starts the test right away.</AlertDescription>
      </Alert>
    );
  }
  if (mode === "ownKey") {
    return (
      <Alert role="status" data-testid="payment-mode-notice">
        <KeyRoundIcon aria-hidden="true" />
        <AlertTitle>Runs use your own OpenRouter key</AlertTitle>
        <AlertDescription>
          Your tests run on your key, so they are free here; the gateway bills your key for the model calls.
        </AlertDescription>
      </Alert>
    );
  }
  return null;
}
