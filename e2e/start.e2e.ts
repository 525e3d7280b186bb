// `npm start` itself, as a person runs it: a child process on chosen ports that prints its
// banner, serves the app, lets the demo user sign in, stops cleanly on Ctrl-C and names a
// taken port; keeps its data between starts (and drops it with --fresh); and runs tests on a
// real OpenAI-compatible gateway when one is configured.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import type { TestConfiguration } from "../convex/validators";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const PORT_VARIABLES = ["MJ_APP_PORT", "MJ_BACKEND_PORT", "MJ_SITE_PORT", "MJ_GATEWAY_PORT", "MJ_STRIPE_PORT"] as const;
type PortVariable = (typeof PORT_VARIABLES)[number];
const READY = "ModelJury is running";

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];
const blockers: Server[] = [];
const folders: string[] = [];

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "mj-start-"));
  folders.push(folder);
  return folder;
}

afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  await Promise.all(blockers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => resolve(server));
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("not listening");
  return address.port;
}

/** Distinct free ports, found by listening on port 0 together and then letting them go. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => listenOn(0)));
  const ports = servers.map(portOf);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** A free port for each of the stack's port settings. */
async function freeStackPorts(): Promise<Record<PortVariable, number>> {
  const found = await freePorts(PORT_VARIABLES.length);
  return Object.fromEntries(PORT_VARIABLES.map((variable, index) => [variable, found[index]!])) as Record<
    PortVariable,
    number
  >;
}

async function isFree(port: number): Promise<boolean> {
  try {
    const server = await listenOn(port);
    await new Promise((resolve) => server.close(resolve));
    return true;
  } catch {
    return false;
  }
}

/**
 * The start script's command (`node --import tsx dev/start.ts`) in its own process group, so a
 * signal to the group reaches it as Ctrl-C in a terminal would. Not through npm: on Ctrl-C npm
 * itself dies of the SIGINT (the shell shows 130) whatever its child's exit code.
 */
function startCommand(
  ports: Record<PortVariable, number>,
  options: { env?: NodeJS.ProcessEnv; args?: string[]; dataDir?: string } = {},
): Started {
  // A data folder of its own (not the developer's dev/.data) and the dev gateway unless asked.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MJ_LATENCY_SCALE: "0",
    MJ_DATA_DIR: options.dataDir ?? dataFolder(),
    MJ_GATEWAY: "dev",
    // These journeys sign up through the API without reading the dev mailbox for the code.
    MJ_EMAIL: "off",
  };
  for (const variable of PORT_VARIABLES) env[variable] = String(ports[variable]);
  delete env.VITE_CONVEX_URL;
  Object.assign(env, options.env);
  const child = spawn(process.execPath, ["--import", "tsx", "dev/start.ts", ...(options.args ?? [])], {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** Resolves when the command has printed `text`; fails when it exits first or after `timeoutMs`. */
async function waitForOutput(started: Started, text: string, timeoutMs = 60_000): Promise<void> {
  const { child } = started;
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (!started.output().includes(text)) return false;
      finish();
      resolve();
      return true;
    };
    const exited = () => {
      if (check()) return;
      finish();
      reject(new Error(`npm start exited ${child.exitCode}:\n${started.output()}`));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`No "${text}" within ${timeoutMs / 1000} s:\n${started.output()}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      child.stdout?.off("data", check);
      child.stderr?.off("data", check);
      child.off("exit", exited);
    };
    // Listeners added after startCommand's own: the output includes each chunk when these run.
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.once("exit", exited);
    if (child.exitCode !== null) exited();
    else check();
  });
}

function interrupt(child: ChildProcess): void {
  if (!child.pid) throw new Error("no pid");
  process.kill(-child.pid, "SIGINT");
}

describe("npm start", () => {
  test("prints the banner, serves the app, the demo user signs in, and Ctrl-C stops everything", async () => {
    const ports = await freeStackPorts();
    const { MJ_APP_PORT: app, MJ_BACKEND_PORT: backend, MJ_SITE_PORT: site } = ports;
    const { MJ_GATEWAY_PORT: gateway, MJ_STRIPE_PORT: stripe } = ports;
    // As a newcomer runs it: email on, sent to the dev mailbox.
    const started = startCommand(ports, { env: { MJ_EMAIL: undefined } });
    await waitForOutput(started, READY);
    const banner = started.output();
    expect(banner).toMatch(/Mail +http:\/\/127\.0\.0\.1:\d+ +inbox: verification, reset, sign-in links and codes/);
    const appUrl = `http://127.0.0.1:${app}`;
    const backendUrl = `http://127.0.0.1:${backend}`;
    expect(banner).toContain(appUrl);
    expect(banner).toContain("demo@modeljury.dev / tasting-panel-123");
    expect(banner).toContain("admin@modeljury.dev / head-juror-123");
    for (const port of [backend, site, gateway, stripe]) expect(banner).toContain(`http://127.0.0.1:${port}`);

    const page = await fetch(appUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const client = new ConvexHttpClient(backendUrl, { skipConvexDeploymentUrlCheck: true, logger: false });
    const signedIn = await client.action(api.auth.signIn, {
      provider: "password",
      params: { email: "demo@modeljury.dev", password: "tasting-panel-123", flow: "signIn" },
    });
    expect(signedIn.tokens?.token).toEqual(expect.any(String));
    client.setAuth(signedIn.tokens!.token);
    expect(await client.query(api.users.viewer, {})).toMatchObject({ email: "demo@modeljury.dev", isAdmin: false });
    expect((await client.query(api.personas.list, {})).total).toBe(3);

    interrupt(started.child);
    const exit = await started.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    for (const port of Object.values(ports)) expect(await isFree(port)).toBe(true);
  });

  test("SIGTERM stops it too, exit code 0", async () => {
    const ports = await freeStackPorts();
    const started = startCommand(ports);
    await waitForOutput(started, READY);
    process.kill(started.child.pid!, "SIGTERM");
    expect(await started.exited).toEqual({ code: 0, signal: null });
    for (const port of Object.values(ports)) expect(await isFree(port)).toBe(true);
  });

  test.each([
    ["MJ_APP_PORT", "app"],
    ["MJ_BACKEND_PORT", "Convex backend"],
  ] as const)("a taken %s stops the start with a message naming the port and its setting", async (variable, label) => {
    const ports = await freeStackPorts();
    blockers.push(await listenOn(ports[variable]));
    const started = startCommand(ports);
    const exit = await started.exited;
    expect(exit.signal).toBeNull();
    expect(exit.code).not.toBe(0);
    expect(started.output()).toContain(`Port ${ports[variable]} (${label}, set ${variable}) is already in use`);
    for (const [name, port] of Object.entries(ports)) if (name !== variable) expect(await isFree(port)).toBe(true);
  });
  test("keeps its data between starts, seeds nothing twice, and --fresh starts empty", async () => {
    const ports = await freeStackPorts();
    const dataDir = dataFolder();
    const backendUrl = `http://127.0.0.1:${ports.MJ_BACKEND_PORT}`;
    const signIn = async (email: string, password: string, flow: "signIn" | "signUp") => {
      const client = new ConvexHttpClient(backendUrl, { skipConvexDeploymentUrlCheck: true, logger: false });
      const result = await client.action(api.auth.signIn, { provider: "password", params: { email, password, flow } });
      client.setAuth(result.tokens!.token);
      return client;
    };

    let started = startCommand(ports, { dataDir });
    await waitForOutput(started, READY);
    expect(started.output()).toContain(`Data            ${join(dataDir, "store.sqlite")}`);
    const ada = await signIn("ada@example.com", "engine-notes-1843", "signUp");
    const adaId = (await ada.query(api.users.viewer, {}))!._id;
    process.kill(started.child.pid!, "SIGTERM");
    expect(await started.exited).toEqual({ code: 0, signal: null });

    started = startCommand(ports, { dataDir });
    await waitForOutput(started, READY);
    // The banner says what the store holds: the demo data and Ada (3 users with the admin).
    expect(started.output()).toMatch(/Data {12}\S+store\.sqlite \(\d+ documents: 3 users, 1 tests, \d+ responses/);
    expect(
      (await (await signIn("ada@example.com", "engine-notes-1843", "signIn")).query(api.users.viewer, {}))!._id,
    ).toBe(adaId);
    const demo = await signIn("demo@modeljury.dev", "tasting-panel-123", "signIn");
    expect((await demo.query(api.personas.list, {})).total).toBe(3);
    expect((await demo.query(api.templates.listOwn, {})).length).toBe(1);
    process.kill(started.child.pid!, "SIGTERM");
    expect(await started.exited).toEqual({ code: 0, signal: null });

    started = startCommand(ports, { dataDir, args: ["--fresh"] });
    await waitForOutput(started, READY);
    expect(started.output()).toContain("started empty (--fresh)");
    await expect(signIn("ada@example.com", "engine-notes-1843", "signIn")).rejects.toThrow();
    process.kill(started.child.pid!, "SIGTERM");
    expect(await started.exited).toEqual({ code: 0, signal: null });
  });

  test("with a gateway configured, tests run on it: its key is sent and its replies become the results", async () => {
    const received: { authorization: string | undefined; model: string }[] = [];
    const models = ["loopback/writer-one", "loopback/writer-two", "loopback/judge"];
    const server = createHttpServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { "Content-Type": "application/json" });
          res.end(JSON.stringify(value));
        };
        if (req.headers.authorization !== "Bearer loopback-key") return json(401, { error: { message: "bad key" } });
        if (req.method === "GET" && req.url === "/v1/models") {
          return json(200, {
            data: models.map((id) => ({
              id,
              name: id,
              context_length: 8192,
              pricing: { prompt: "0.000001", completion: "0.000002" },
            })),
          });
        }
        if (req.method === "POST" && req.url === "/v1/chat/completions") {
          const request = JSON.parse(body) as { model: string; messages: { content: string }[] };
          received.push({ authorization: req.headers.authorization, model: request.model });
          const text = request.messages.map((message) => message.content).join("\n");
          const labels = /lists every label \(([^)]*)\) exactly once/.exec(text);
          const count = /JSON array of exactly (\d+) string/.exec(text);
          const content = labels
            ? JSON.stringify({ ranking: labels[1].split(", "), explanation: "Judged on loopback." })
            : JSON.stringify(
                Array.from(
                  { length: Number(count?.[1] ?? 1) },
                  (_, i) => `Loopback answer ${i + 1} from ${request.model}`,
                ),
              );
          return json(200, {
            choices: [{ message: { role: "assistant", content } }],
            usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
          });
        }
        json(404, { error: { message: `no route ${req.method} ${req.url}` } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const gatewayUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    try {
      const ports = await freeStackPorts();
      const started = startCommand(ports, {
        env: { MJ_GATEWAY: "", GATEWAY_BASE_URL: gatewayUrl, OPENROUTER_API_KEY: "loopback-key" },
      });
      await waitForOutput(started, READY);
      expect(started.output()).toContain(`Model gateway   ${gatewayUrl}   REAL`);

      const client = new ConvexHttpClient(`http://127.0.0.1:${ports.MJ_BACKEND_PORT}`, {
        skipConvexDeploymentUrlCheck: true,
        logger: false,
      });
      const signedIn = await client.action(api.auth.signIn, {
        provider: "password",
        params: { email: "demo@modeljury.dev", password: "tasting-panel-123", flow: "signIn" },
      });
      client.setAuth(signedIn.tokens!.token);
      expect((await client.query(api.models.list, {})).models.map((model) => model.id).sort()).toEqual(
        [...models].sort(),
      );
      const configuration: TestConfiguration = {
        name: "On the loopback gateway",
        taskType: "general",
        userPrompt: "Write a tagline.",
        personas: [
          { id: "p1", name: "Pirate", description: "Talks like a pirate", systemPrompt: "Answer like a pirate." },
        ],
        topics: [{ id: "t1", title: "Coffee", description: "Coffee shop", prompt: "We sell cold brew coffee." }],
        generatorModels: [
          { id: models[0], name: models[0] },
          { id: models[1], name: models[1] },
        ],
        evaluatorModels: [{ id: models[2], name: models[2] }],
        responsesPerTopic: 2,
        rankingPrompt: "",
        evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
        scoringParameters: { scale: "ranking", includeExplanations: true },
      };
      const { testId, paymentRequired } = await client.mutation(api.tests.create, { configuration });
      if (paymentRequired) {
        // Payments stay at the dev Stripe.
        const { sessionId } = await client.action(api.payments.createCheckout, { testId });
        const pay = await fetch(
          `http://127.0.0.1:${ports.MJ_STRIPE_PORT}/checkout/${encodeURIComponent(sessionId)}/pay`,
          {
            method: "POST",
            redirect: "manual",
          },
        );
        expect(pay.status).toBe(303);
      }
      const deadline = Date.now() + 60_000;
      let monitor = await client.query(api.tests.monitor, { testId });
      while (monitor.test.status !== "completed" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        monitor = await client.query(api.tests.monitor, { testId });
      }
      expect(monitor.test).toMatchObject({ status: "completed", responsesCount: 4, evaluationsCount: 4 });
      const answers = (
        await client.query(api.results.responses, { testId, paginationOpts: { numItems: 20, cursor: null } })
      ).page;
      expect(answers.map((row) => row.content).sort()).toEqual(
        [1, 2].flatMap((i) => models.slice(0, 2).map((model) => `Loopback answer ${i} from ${model}`)).sort(),
      );
      expect(received.filter((call) => call.model === models[2])).toHaveLength(1);
      expect(received.every((call) => call.authorization === "Bearer loopback-key")).toBe(true);

      process.kill(started.child.pid!, "SIGTERM");
      expect(await started.exited).toEqual({ code: 0, signal: null });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
