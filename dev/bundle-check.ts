// Bundles convex/ the way `npx convex deploy` does (convex/dist/cjs/bundler: esbuild, ESM,
// conditions "convex" and "module", every package bundled, no externals): the default runtime's
// modules for platform "browser" (node:async_hooks shimmed, as Convex does), "use node" modules
// for platform "node". Fails on any error, e.g. a Node API imported from a default-runtime module
// or an import that does not resolve, which the offline backend (plain Node) would not notice.
//   npx tsx dev/bundle-check.ts [convexDir]  (CI: .ci/run)
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import esbuild from "esbuild";
import type { BuildResult, Message, Plugin } from "esbuild";

const dir = resolve(process.argv[2] ?? "convex");
const MODULE = /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;
const USE_NODE = /^\s*("|')use node("|');?\s*$/m;

/** Convex's entry points: source files whose name has one dot (not tests or declarations), auth.config.ts too. */
function entryPoints(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) {
      if (name !== "node_modules" && !name.startsWith(".")) found.push(...entryPoints(path));
      continue;
    }
    if (!MODULE.test(name)) continue;
    if (name.split(".").length !== 2 && !/^auth\.config\.[jt]s$/.test(name)) continue;
    found.push(path);
  }
  return found;
}

const asyncHooksShim: Plugin = {
  name: "convex-async-hooks-shim",
  setup(build) {
    build.onResolve({ filter: /^(node:)?async_hooks$/ }, (args) => ({
      path: args.path,
      namespace: "async-hooks-shim",
    }));
    build.onLoad({ filter: /.*/, namespace: "async-hooks-shim" }, () => ({
      contents:
        "export const AsyncLocalStorage = globalThis.AsyncLocalStorage; export const AsyncResource = globalThis.AsyncResource; export default { AsyncLocalStorage, AsyncResource };",
      loader: "js",
    }));
  },
};

async function bundle(
  entries: string[],
  platform: "browser" | "node",
): Promise<Pick<BuildResult, "errors" | "warnings">> {
  if (entries.length === 0) return { errors: [], warnings: [] };
  try {
    return await esbuild.build({
      entryPoints: entries,
      bundle: true,
      platform,
      format: "esm",
      target: "esnext",
      jsx: "automatic",
      outdir: "out",
      outbase: dir,
      conditions: ["convex", "module"],
      plugins: platform === "browser" ? [asyncHooksShim] : [],
      write: false,
      splitting: true,
      treeShaking: true,
      minifySyntax: true,
      minifyIdentifiers: true,
      keepNames: true,
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
      metafile: true,
    });
  } catch (error) {
    const failure = error as { errors?: Message[]; warnings?: Message[] };
    if (Array.isArray(failure.errors)) return { errors: failure.errors, warnings: failure.warnings ?? [] };
    throw error;
  }
}

const all = entryPoints(dir);
const nodeEntries = all.filter((path) => USE_NODE.test(readFileSync(path, "utf8").split("\n").slice(0, 5).join("\n")));
const defaultEntries = all.filter((path) => !nodeEntries.includes(path));
let failed = false;
for (const [platform, entries] of [
  ["browser", defaultEntries],
  ["node", nodeEntries],
] as const) {
  const result = await bundle(entries, platform);
  const messages = await esbuild.formatMessages(result.errors, { kind: "error", color: false });
  if (result.errors.length > 0) {
    failed = true;
    console.error(
      `convex/ does not bundle for the ${platform === "browser" ? "default (Convex) runtime" : "Node.js runtime"}:`,
    );
    for (const message of messages) console.error(message);
  } else {
    console.log(
      `bundled ${entries.length} ${platform === "browser" ? "default-runtime" : '"use node"'} modules of ${relative(process.cwd(), dir) || "."}`,
    );
  }
}
process.exit(failed ? 1 : 0);
