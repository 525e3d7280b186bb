// Evaluates the bundled modules as a deployment does at push time: each runtime's modules in a
// child process of their own (evaluateModules.ts), the default runtime's without Node's globals.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Bundle } from "./bundle.js";
import type { EvaluatedModule, EvaluationRequest } from "./evaluateModules.js";

const CHILD = fileURLToPath(new URL("./evaluateModules.ts", import.meta.url));
/** The project's root, where the child finds tsx. */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The environment a fresh deployment gives its modules: its own URLs and nothing else, so a module
 * that needs a variable set with `npx convex env set` at load fails here as on a first push.
 */
export const FRESH_DEPLOYMENT_ENV = {
  CONVEX_CLOUD_URL: "https://deploy-check.convex.cloud",
  CONVEX_SITE_URL: "https://deploy-check.convex.site",
};

/** Each entry module of the bundles, evaluated in its runtime. */
export async function evaluateBundles(
  bundles: Bundle[],
  env: Record<string, string> = FRESH_DEPLOYMENT_ENV,
): Promise<(EvaluatedModule & { runtime: Bundle["runtime"] })[]> {
  const results: (EvaluatedModule & { runtime: Bundle["runtime"] })[] = [];
  for (const bundle of bundles) {
    if (bundle.entries.length === 0 || bundle.errors.length > 0) continue;
    const dir = mkdtempSync(join(tmpdir(), `mj-deploy-check-${bundle.runtime}-`));
    try {
      for (const output of bundle.outputs) {
        const path = join(dir, output.path);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, output.contents);
      }
      const request: EvaluationRequest = {
        modules: bundle.entries.map((entry) => ({
          module: entry.replace(/\.[^.]+$/, ""),
          file: entry.replace(/\.[^.]+$/, ".js"),
        })),
        env,
      };
      const requestFile = join(dir, "request.json");
      writeFileSync(requestFile, JSON.stringify(request));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--experimental-vm-modules", "--no-warnings", "--import", "tsx", CHILD, dir, bundle.runtime, requestFile],
        { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? "" } },
      );
      for (const result of JSON.parse(stdout) as EvaluatedModule[])
        results.push({ ...result, runtime: bundle.runtime });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return results;
}
