/**
 * Vitest global setup of the browser journeys: builds the app once per run, so each journey's
 * stack serves the same files (dev/static-app.ts) instead of compiling the app in a Vite dev
 * server of its own. The build is kept in .vite/e2e-app/<hash of its inputs> (git-ignored) and
 * reused while no input changed; the journeys read its folder with `inject("appBuild")`.
 */

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The built app's folder, for StackOptions.appBuild. */
    appBuild: string;
  }
}

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUILDS_DIR = path.join(REPO_ROOT, ".vite", "e2e-app");
/** What the build reads: the app, the Convex modules it imports, its configuration and dependencies. */
const INPUTS = ["src", "convex", "public", "index.html", "landing.html", "vite.config.ts", "package-lock.json"];
/** Builds (and unfinished ones) not used for this long are removed; another run may still serve a recent one. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

function addInput(hash: ReturnType<typeof createHash>, file: string): void {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats) return;
  if (stats.isDirectory()) {
    for (const entry of readdirSync(file).sort()) {
      // Tests are not part of the app: editing one needs no new build.
      if (entry === "node_modules" || entry.startsWith(".") || /\.test\.tsx?$/.test(entry)) continue;
      addInput(hash, path.join(file, entry));
    }
    return;
  }
  hash.update(path.relative(REPO_ROOT, file)).update("\0").update(readFileSync(file)).update("\0");
}

/** A digest of every file the build reads: a changed file means a new build. */
function appBuildKey(): string {
  const hash = createHash("sha256");
  for (const input of INPUTS) addInput(hash, path.join(REPO_ROOT, input));
  return hash.digest("hex").slice(0, 16);
}

function removeStaleBuilds(keep: string): void {
  for (const entry of readdirSync(BUILDS_DIR)) {
    const folder = path.join(BUILDS_DIR, entry);
    if (folder === keep) continue;
    if (Date.now() - statSync(folder).mtimeMs > STALE_AFTER_MS) rmSync(folder, { recursive: true, force: true });
  }
}

/** The folder of an up-to-date build of the app, built now when there is none. */
async function ensureAppBuild(): Promise<string> {
  const target = path.join(BUILDS_DIR, appBuildKey());
  if (existsSync(path.join(target, "index.html"))) {
    const now = new Date();
    utimesSync(target, now, now); // in use: not stale for other runs
    return target;
  }
  // Built beside and renamed into place, so a run started at the same time never serves half a build.
  const temporary = path.join(BUILDS_DIR, `tmp-${process.pid}-${Date.now()}`);
  const { build } = await import("vite");
  await build({
    root: REPO_ROOT,
    configFile: path.join(REPO_ROOT, "vite.config.ts"),
    logLevel: "warn",
    build: { outDir: temporary, emptyOutDir: true },
  });
  try {
    renameSync(temporary, target);
  } catch (error) {
    // Another run finished the same build first.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(path.join(target, "index.html"))) throw error;
  }
  return target;
}

export default async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  const folder = await ensureAppBuild();
  project.provide("appBuild", folder);
  removeStaleBuilds(folder);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`[e2e] app build ${path.relative(REPO_ROOT, folder)} (${seconds} s)`);
}
