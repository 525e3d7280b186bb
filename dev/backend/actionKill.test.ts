// @vitest-environment node
// A killed action's connections close at the moment of the kill (faults.ts), as a process kill or
// an isolate's teardown closes them: the dev gateway sees its streamed call's client disconnect,
// stops the generation and bills only the prompt (dev/gateway/streaming.ts). A mutation it had
// sent before the kill runs on and commits, as on a deployment.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startGateway } from "../gateway/server";
import { faultCounts, KILLED_MESSAGE, killRunningActions } from "./faults";
import type { RunningBackend } from "./server";
import { openGate, releaseGates, startFixtureBackend, untilWaiting } from "./testing";

let keysDir: string;
let backend: RunningBackend;
let gateway: Awaited<ReturnType<typeof startGateway>>;

beforeAll(async () => {
  keysDir = mkdtempSync(join(tmpdir(), "mj-action-kill-"));
  backend = await startFixtureBackend(keysDir, { crons: false });
  // A call that would stream for a minute: the kill comes long before its end.
  gateway = await startGateway({ port: 0, fixedLatencyMs: 60_000 });
});
afterAll(async () => {
  releaseGates();
  await backend.close();
  await gateway.close();
  rmSync(keysDir, { recursive: true, force: true });
});

/** A call through the deployment's HTTP function API. */
async function call(kind: "query" | "action", path: string, args: object) {
  const response = await fetch(`${backend.url}/api/${kind}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ path, args, format: "json" }),
  });
  return (await response.json()) as { status: string; value?: unknown; errorMessage?: string };
}

it("a killed action's streamed gateway call is disconnected at the kill: cancelled, billed for the prompt only", async () => {
  const body = JSON.stringify({
    model: "openai/gpt-4o-mini",
    messages: [{ role: "user", content: "Say something about the weather, at length." }],
    stream: true,
  });
  const killedBefore = faultCounts.killedActions;
  const reply = call("action", "network:readStream", {
    url: `${gateway.url}/chat/completions`,
    apiKey: gateway.settings.apiKey,
    body,
  });

  await vi.waitFor(() => expect(gateway.stats.inFlight).toBe(1), { interval: 10, timeout: 20_000 });
  expect(killRunningActions()).toBe(1);
  expect(await reply).toMatchObject({ status: "error", errorMessage: expect.stringContaining(KILLED_MESSAGE) });
  expect(faultCounts.killedActions).toBe(killedBefore + 1);

  // The gateway saw the disconnect and stopped the generation, long before its minute.
  await vi.waitFor(() => expect(gateway.stats.cancelled).toBe(1), { interval: 10, timeout: 20_000 });
  expect(gateway.stats).toMatchObject({ inFlight: 0, completed: 0 });
  const prompt = gateway.stats.billed.cancelled;
  expect(prompt.promptTokens).toBeGreaterThan(0);
  expect(prompt.completionTokens).toBe(0);
  expect(prompt.costUsd).toBeGreaterThan(0);
  expect(gateway.stats.billed.completed).toEqual({ promptTokens: 0, completionTokens: 0, costUsd: 0 });
});

it("a mutation the action sent before its kill runs on and commits; the action hears only its death", async () => {
  const reply = call("action", "limits:actionRunsHeldMutation", { gate: "sent before the kill" });
  await untilWaiting("sent before the kill", 1);
  expect(killRunningActions()).toBe(1);
  expect(await reply).toMatchObject({ status: "error", errorMessage: expect.stringContaining(KILLED_MESSAGE) });
  openGate("sent before the kill");
  await vi.waitFor(
    async () => expect((await call("query", "concurrency:marks", {})).value).toContain("sent before the kill"),
    { interval: 20, timeout: 20_000 },
  );
});
