// The setup draft keeps its checks through a template (saved and applied) and a rerun, each check
// still held to its own topic under the topics' new ids.
import { describe, expect, test } from "vitest";

import {
  applyTemplateToState,
  buildTestConfiguration,
  defaultSetupState,
  loadStoredSetup,
  rerunState,
  saveStoredSetup,
  templateDataOfState,
  type SetupState,
} from "./setup-state";

function draft(): SetupState {
  return {
    ...defaultSetupState(),
    name: "Taglines",
    userPrompt: "Write a tagline.",
    personas: [{ id: "p1", name: "Pirate", description: "Arr", systemPrompt: "Talk like a pirate." }],
    topics: [
      { id: "t1", title: "Coffee", description: "Coffee", prompt: "Cold brew." },
      { id: "t2", title: "Bikes", description: "Bikes", prompt: "City bikes." },
    ],
    checks: [
      { id: "c1", kind: "json" },
      { id: "c2", kind: "contains", value: "brew", topicId: "t1" },
    ],
    failedChecksRankLast: true,
  };
}

describe("checks in the setup draft", () => {
  test("a template saves the checks and applying it restores them on the new topics", () => {
    const data = templateDataOfState(draft());
    expect(data.checks).toEqual([
      { id: "c1", kind: "json" },
      { id: "c2", kind: "contains", value: "brew", topicIndex: 0 },
    ]);
    expect(data.failedChecksRankLast).toBe(true);
    const applied = applyTemplateToState(
      { kind: "saved", id: "x", name: "Taglines", category: "general", data },
      new Set(),
    );
    expect(applied.checks[1]).toMatchObject({ kind: "contains", topicId: applied.topics[0].id });
    expect(applied.checks[0].topicId).toBeUndefined();
    expect(applied.failedChecksRankLast).toBe(true);
  });

  test("a rerun keeps the checks, each on its topic's new id, and they reach the configuration", () => {
    const configuration = buildTestConfiguration(draft(), new Map());
    expect(configuration.checks).toHaveLength(2);
    const rerun = rerunState(configuration, new Set());
    expect(rerun.topics[0].id).not.toBe("t1");
    expect(rerun.checks[1].topicId).toBe(rerun.topics[0].id);
    expect(rerun.failedChecksRankLast).toBe(true);
  });

  test("a draft without checks sends none", () => {
    const configuration = buildTestConfiguration({ ...draft(), checks: [], failedChecksRankLast: false }, new Map());
    expect("checks" in configuration).toBe(false);
    expect("failedChecksRankLast" in configuration).toBe(false);
  });

  test("the checks survive a reload", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
      removeItem: (key: string) => void store.delete(key),
    };
    saveStoredSetup(storage, { ownerId: "u", state: draft() });
    expect(loadStoredSetup(storage).state.checks).toEqual(draft().checks);
  });
});
