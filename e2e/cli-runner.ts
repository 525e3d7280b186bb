// The command-line runner run as a child process, as CI runs it, for the journeys that drive it.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** How long one command may take before it is killed (a run waits for the whole test). */
const CLI_TIMEOUT_MS = 90_000;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `modeljury <args>` with no terminal and no step summary; the address and token only when
 * `env` gives them (a developer's own MODELJURY_URL / MODELJURY_TOKEN never leak in).
 */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = CLI_TIMEOUT_MS): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string | undefined> = { ...process.env, ...env, GITHUB_STEP_SUMMARY: "" };
    if (!env.MODELJURY_URL) delete childEnv.MODELJURY_URL;
    if (!env.MODELJURY_TOKEN) delete childEnv.MODELJURY_TOKEN;
    const child = spawn(process.execPath, [path.resolve(REPO_ROOT, "cli/modeljury.js"), ...args], {
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
