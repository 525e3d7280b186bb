// The setup draft as React state, kept in local storage across reloads (one versioned key).
import { useEffect, useMemo, useRef, useState } from "react";

import { useViewer } from "@/hooks/use-viewer";
import type { TestConfiguration } from "../../../convex/validators";
import {
  applyTemplateToState,
  browserStorage,
  clearStoredSetup,
  defaultSetupState,
  loadStoredSetup,
  rerunState,
  saveStoredSetup,
  tempId,
  type ModelRole,
  type SetupPersona,
  type SetupState,
  type SetupTopic,
  type TemplateSource,
} from "./setup-state";

type Editable = Pick<
  SetupState,
  | "name"
  | "userPrompt"
  | "rankingPrompt"
  | "evaluationCriteria"
  | "scoringParameters"
  | "checks"
  | "failedChecksRankLast"
  | "stopWhenSettled"
  | "repeats"
>;

export interface SetupActions {
  update(patch: Partial<Editable>): void;
  /**
   * As typed, also out of range (NaN for text that is no number): the sticky bar then names the
   * problem and Run Test waits, instead of the draft silently keeping its last good value.
   */
  setResponsesPerTopic(value: number): void;
  /** Custom category: show the sections without a template. */
  startCustom(): void;
  addPersona(fields: Omit<SetupPersona, "id">): void;
  updatePersona(id: string, fields: Omit<SetupPersona, "id">): void;
  removePersona(id: string): void;
  addTopic(fields: Omit<SetupTopic, "id">): void;
  updateTopic(id: string, fields: Omit<SetupTopic, "id">): void;
  removeTopic(id: string): void;
  toggleModel(role: ModelRole, id: string): void;
  setModels(role: ModelRole, ids: string[]): void;
  /** Drops selected models the catalog no longer lists. */
  keepModelsIn(catalogIds: ReadonlySet<string>): void;
  applyTemplate(source: TemplateSource, catalogIds: ReadonlySet<string>): void;
  /** `rerunOf`: the test rerun (absent for an imported configuration). */
  prefillRerun(config: TestConfiguration, catalogIds: ReadonlySet<string>, rerunOf?: string): void;
  reset(): void;
}

const roleKey = { generator: "generatorModelIds", evaluator: "evaluatorModelIds" } as const;

export function useSetupState(): [SetupState, SetupActions] {
  const [initial] = useState(() => loadStoredSetup(browserStorage()));
  const [state, setState] = useState<SetupState>(initial.state);
  const ownerId = useRef<string | null>(initial.ownerId);
  const viewer = useViewer();
  const viewerId = viewer?._id ?? null;

  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
    saveStoredSetup(browserStorage(), { ownerId: ownerId.current, state });
  }, [state]);

  // A draft left by another account on this browser is not shown to this one.
  useEffect(() => {
    if (!viewerId || ownerId.current === viewerId) return;
    const previousOwner = ownerId.current;
    ownerId.current = viewerId;
    if (previousOwner !== null) setState(defaultSetupState());
    else saveStoredSetup(browserStorage(), { ownerId: viewerId, state: latest.current });
  }, [viewerId]);

  const actions = useMemo<SetupActions>(() => {
    const patch = (change: (current: SetupState) => Partial<SetupState>) =>
      setState((current) => ({ ...current, ...change(current) }));
    return {
      update: (fields) => patch(() => fields),
      setResponsesPerTopic: (value) => patch(() => ({ responsesPerTopic: value })),
      startCustom: () => patch(() => ({ sectionsVisible: true })),
      addPersona: (fields) => patch((current) => ({ personas: [...current.personas, { id: tempId(), ...fields }] })),
      updatePersona: (id, fields) =>
        patch((current) => ({
          personas: current.personas.map((persona) => (persona.id === id ? { id, ...fields } : persona)),
        })),
      removePersona: (id) =>
        patch((current) => ({ personas: current.personas.filter((persona) => persona.id !== id) })),
      addTopic: (fields) => patch((current) => ({ topics: [...current.topics, { id: tempId(), ...fields }] })),
      updateTopic: (id, fields) =>
        patch((current) => ({ topics: current.topics.map((topic) => (topic.id === id ? { id, ...fields } : topic)) })),
      // A check held to a removed topic goes with it.
      removeTopic: (id) =>
        patch((current) => ({
          topics: current.topics.filter((topic) => topic.id !== id),
          checks: current.checks.filter((check) => check.topicId !== id),
        })),
      toggleModel: (role, id) =>
        patch((current) => {
          const ids = current[roleKey[role]];
          return { [roleKey[role]]: ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id] };
        }),
      setModels: (role, ids) => patch(() => ({ [roleKey[role]]: [...new Set(ids)] })),
      keepModelsIn: (catalogIds) =>
        setState((current) => {
          const generators = current.generatorModelIds.filter((id) => catalogIds.has(id));
          const evaluators = current.evaluatorModelIds.filter((id) => catalogIds.has(id));
          if (
            generators.length === current.generatorModelIds.length &&
            evaluators.length === current.evaluatorModelIds.length
          ) {
            return current;
          }
          return { ...current, generatorModelIds: generators, evaluatorModelIds: evaluators };
        }),
      applyTemplate: (source, catalogIds) => {
        // Spec: applying clears the stored selections, then the new draft is stored.
        clearStoredSetup(browserStorage());
        setState(applyTemplateToState(source, catalogIds));
      },
      prefillRerun: (config, catalogIds, rerunOf) => {
        clearStoredSetup(browserStorage());
        setState({ ...rerunState(config, catalogIds), ...(rerunOf === undefined ? {} : { rerunOf }) });
      },
      reset: () => {
        clearStoredSetup(browserStorage());
        setState(defaultSetupState());
      },
    };
  }, []);

  return [state, actions];
}
