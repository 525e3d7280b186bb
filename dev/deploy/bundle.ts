// Bundles convex/ the way `npx convex deploy` does (convex/dist/cjs/bundler: esbuild, ESM,
// conditions "convex" and "module", every package bundled, no externals): the default runtime's
// modules for platform "browser" (node:async_hooks shimmed, as Convex does), "use node" modules
// for platform "node". An import that only works in Node, or that does not resolve, fails here,
// which the offline backend (plain Node) would not notice. Part of `npm run check:deploy`.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import esbuild from "esbuild";
import type { Message, OutputFile, Plugin } from "esbuild";

const MODULE = /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;
const USE_NODE = /^\s*("|')use node("|');?\s*$/m;

export type Runtime = "default" | "node";

/** One bundle: the entries of one runtime, their output files, or the bundler's errors. */
export type Bundle = {
  runtime: Runtime;
  /** Entry files, relative to the functions folder ("tests.ts", "lib/x.ts" is not an entry). */
  entries: string[];
  /** The bundled files (entries and shared chunks), paths relative to the output root. */
  outputs: { path: string; contents: Uint8Array }[];
  errors: string[];
};

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

const OUT = "/out";

async function bundleEntries(dir: string, entries: string[], runtime: Runtime): Promise<Bundle> {
  const relativeEntries = entries.map((path) => relative(dir, path).split("\\").join("/"));
  if (entries.length === 0) return { runtime, entries: [], outputs: [], errors: [] };
  try {
    const result = await esbuild.build({
      entryPoints: entries,
      bundle: true,
      platform: runtime === "default" ? "browser" : "node",
      format: "esm",
      target: "esnext",
      jsx: "automatic",
      outdir: OUT,
      outbase: dir,
      conditions: ["convex", "module"],
      plugins: runtime === "default" ? [asyncHooksShim] : [],
      write: false,
      splitting: true,
      treeShaking: true,
      minifySyntax: true,
      minifyIdentifiers: true,
      keepNames: true,
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
    });
    const outputs = result.outputFiles.map((file: OutputFile) => ({
      path: relative(OUT, file.path).split("\\").join("/"),
      contents: file.contents,
    }));
    return { runtime, entries: relativeEntries, outputs, errors: [] };
  } catch (error) {
    const failure = error as { errors?: Message[] };
    if (!Array.isArray(failure.errors)) throw error;
    const errors = await esbuild.formatMessages(failure.errors, { kind: "error", color: false });
    return { runtime, entries: relativeEntries, outputs: [], errors };
  }
}

/** Bundles the functions folder `dir` for both runtimes, as `npx convex deploy` does. */
export async function bundleConvex(dir: string): Promise<Bundle[]> {
  const all = entryPoints(dir);
  const isNode = (path: string) => USE_NODE.test(readFileSync(path, "utf8").split("\n").slice(0, 5).join("\n"));
  return [
    await bundleEntries(
      dir,
      all.filter((path) => !isNode(path)),
      "default",
    ),
    await bundleEntries(dir, all.filter(isNode), "node"),
  ];
}
