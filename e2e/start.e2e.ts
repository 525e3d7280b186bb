// `npm start` itself, as a person runs it: a child process on chosen ports that prints its
// banner, serves the app, lets the demo user sign in, stops cleanly on Ctrl-C and names a
// taken port.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ConvexHttpClient } from 'convex/browser';
import { afterEach, describe, expect, test } from 'vitest';
import { api } from '../convex/_generated/api';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT_VARIABLES = ['MJ_APP_PORT', 'MJ_BACKEND_PORT', 'MJ_SITE_PORT', 'MJ_GATEWAY_PORT', 'MJ_STRIPE_PORT'] as const;
type PortVariable = (typeof PORT_VARIABLES)[number];
const READY = 'ModelJury is running';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];
const blockers: Server[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
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
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening');
  return address.port;
}

/** Distinct free ports, found by listening on port 0 together and then letting them go. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => listenOn(0)));
  const ports = servers.map(portOf);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
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
function startCommand(ports: Record<PortVariable, number>): Started {
  const env: NodeJS.ProcessEnv = { ...process.env, MJ_LATENCY_SCALE: '0' };
  for (const variable of PORT_VARIABLES) env[variable] = String(ports[variable]);
  delete env.VITE_CONVEX_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'dev/start.ts'], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function waitForOutput(started: Started, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!started.output().includes(text)) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited ${started.child.exitCode}:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`No "${text}" within ${timeoutMs / 1000} s:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function interrupt(child: ChildProcess): void {
  if (!child.pid) throw new Error('no pid');
  process.kill(-child.pid, 'SIGINT');
}

describe('npm start', () => {
  test('prints the banner, serves the app, the demo user signs in, and Ctrl-C stops everything', async () => {
    const [app, backend, site, gateway, stripe] = await freePorts(5);
    const ports = { MJ_APP_PORT: app!, MJ_BACKEND_PORT: backend!, MJ_SITE_PORT: site!, MJ_GATEWAY_PORT: gateway!, MJ_STRIPE_PORT: stripe! };
    const started = startCommand(ports);
    await waitForOutput(started, READY);
    const banner = started.output();
    const appUrl = `http://127.0.0.1:${app}`;
    const backendUrl = `http://127.0.0.1:${backend}`;
    expect(banner).toContain(appUrl);
    expect(banner).toContain('demo@modeljury.dev / demo-password-123');
    expect(banner).toContain('admin@modeljury.dev / admin-password-123');
    for (const port of [backend, site, gateway, stripe]) expect(banner).toContain(`http://127.0.0.1:${port}`);

    const page = await fetch(appUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"></div>');

    const client = new ConvexHttpClient(backendUrl, { skipConvexDeploymentUrlCheck: true, logger: false });
    const signedIn = await client.action(api.auth.signIn, {
      provider: 'password',
      params: { email: 'demo@modeljury.dev', password: 'demo-password-123', flow: 'signIn' },
    });
    expect(signedIn.tokens?.token).toEqual(expect.any(String));
    client.setAuth(signedIn.tokens!.token);
    expect(await client.query(api.users.viewer, {})).toMatchObject({ email: 'demo@modeljury.dev', isAdmin: false });
    expect((await client.query(api.personas.list, {})).total).toBe(3);

    interrupt(started.child);
    const exit = await started.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    for (const port of Object.values(ports)) expect(await isFree(port)).toBe(true);
  });

  test('SIGTERM stops it too, exit code 0', async () => {
    const [app, backend, site, gateway, stripe] = await freePorts(5);
    const ports = { MJ_APP_PORT: app!, MJ_BACKEND_PORT: backend!, MJ_SITE_PORT: site!, MJ_GATEWAY_PORT: gateway!, MJ_STRIPE_PORT: stripe! };
    const started = startCommand(ports);
    await waitForOutput(started, READY);
    process.kill(started.child.pid!, 'SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
    for (const port of Object.values(ports)) expect(await isFree(port)).toBe(true);
  });

  test.each([
    ['MJ_APP_PORT', 'app'],
    ['MJ_BACKEND_PORT', 'Convex backend'],
  ] as const)('a taken %s stops the start with a message naming the port and its setting', async (variable, label) => {
    const [app, backend, site, gateway, stripe] = await freePorts(5);
    const ports = { MJ_APP_PORT: app!, MJ_BACKEND_PORT: backend!, MJ_SITE_PORT: site!, MJ_GATEWAY_PORT: gateway!, MJ_STRIPE_PORT: stripe! };
    blockers.push(await listenOn(ports[variable]));
    const started = startCommand(ports);
    const exit = await started.exited;
    expect(exit.signal).toBeNull();
    expect(exit.code).not.toBe(0);
    expect(started.output()).toContain(`Port ${ports[variable]} (${label}, set ${variable}) is already in use`);
    for (const [name, port] of Object.entries(ports)) if (name !== variable) expect(await isFree(port)).toBe(true);
  });
});
