// Child process of the deploy check (evaluate.ts): imports each bundled module of one runtime the
// way a deployment evaluates it at push time, and prints what it found as JSON on stdout.
//   node --experimental-vm-modules --import tsx dev/deploy/evaluateModules.ts <outDir> <default|node> <request.json>
// The default runtime's modules run in a V8 context of their own, as in Convex's isolate: the
// language's globals plus the web APIs Convex provides (fetch, crypto, URL, TextEncoder, timers,
// console…) and a `process` that has only `env`; no `Buffer`, `require`, `__dirname`,
// `setImmediate` or `global`. A module that touches them at load fails here as it fails on push.
// "use node" modules are imported by Node itself, with only the deployment's environment.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

export type EvaluatedFunction = { name: string; kind: string; visibility: string; error: string | null };
export type EvaluatedModule = {
  module: string;
  error: string | null;
  functions: EvaluatedFunction[];
  /** schema.ts: the schema as `npx convex deploy` sends it (SchemaDefinition.export()). */
  schema?: unknown;
  /** auth.config.ts: its default export. */
  authConfig?: unknown;
  /** http.ts: whether the default export is an HttpRouter, and how many routes it has. */
  router?: { isRouter: boolean; routes: number };
  /** crons.ts: each job's function path. */
  crons?: Record<string, string>;
};
export type EvaluationRequest = { modules: { module: string; file: string }[]; env: Record<string, string> };

type Registered = {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  isHttp?: boolean;
  isPublic?: boolean;
  exportArgs?: () => string;
  exportReturns?: () => string;
};

function message(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function functionsOf(exports: Record<string, unknown>): EvaluatedFunction[] {
  const found: EvaluatedFunction[] = [];
  for (const [name, value] of Object.entries(exports)) {
    if ((typeof value !== "function" && typeof value !== "object") || value === null) continue;
    const fn = value as Registered;
    const kind = fn.isQuery
      ? "query"
      : fn.isMutation
        ? "mutation"
        : fn.isAction
          ? "action"
          : fn.isHttp
            ? "httpAction"
            : null;
    if (kind === null) continue;
    let error: string | null = null;
    try {
      // The push reads each function's validators as JSON.
      if (typeof fn.exportArgs === "function") JSON.parse(fn.exportArgs());
      if (typeof fn.exportReturns === "function") JSON.parse(fn.exportReturns());
    } catch (caught) {
      error = message(caught);
    }
    found.push({ name, kind, visibility: fn.isPublic ? "public" : "internal", error });
  }
  return found;
}

/** The web APIs Convex's default runtime provides, taken from Node's implementations. */
const WEB_GLOBALS = [
  "fetch",
  "Request",
  "Response",
  "Headers",
  "FormData",
  "Blob",
  "File",
  "URL",
  "URLSearchParams",
  "TextEncoder",
  "TextDecoder",
  "crypto",
  "atob",
  "btoa",
  "console",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "queueMicrotask",
  "structuredClone",
  "AbortController",
  "AbortSignal",
  "Event",
  "EventTarget",
  "ReadableStream",
  "WritableStream",
  "TransformStream",
  "performance",
] as const;

type SourceTextModule = vm.Module & { namespace: Record<string, unknown> };
type ModuleConstructor = new (source: string, options: { context: vm.Context; identifier: string }) => SourceTextModule;

/** Imports a bundled file into an isolate-like context, linking its chunks by relative path. */
function isolateImporter(env: Record<string, string>): (file: string) => Promise<Record<string, unknown>> {
  const globals: Record<string, unknown> = { process: { env: { ...env } } };
  for (const name of WEB_GLOBALS) globals[name] = (globalThis as Record<string, unknown>)[name];
  const context = vm.createContext(globals);
  const SourceText = (vm as unknown as { SourceTextModule: ModuleConstructor }).SourceTextModule;
  const cache = new Map<string, SourceTextModule>();
  const load = (path: string): SourceTextModule => {
    let module = cache.get(path);
    if (module === undefined) {
      module = new SourceText(readFileSync(path, "utf8"), { context, identifier: pathToFileURL(path).href });
      cache.set(path, module);
    }
    return module;
  };
  return async (file) => {
    const module = load(file);
    await module.link((specifier: string, referencing: vm.Module) => {
      if (!specifier.startsWith(".")) throw new Error(`Cannot import "${specifier}" in Convex's runtime`);
      return load(resolve(dirname(new URL(referencing.identifier).pathname), specifier));
    });
    await module.evaluate();
    return module.namespace;
  };
}

async function evaluate(
  outDir: string,
  request: EvaluationRequest,
  importModule: (file: string) => Promise<Record<string, unknown>>,
): Promise<EvaluatedModule[]> {
  const results: EvaluatedModule[] = [];
  for (const { module, file } of request.modules) {
    const result: EvaluatedModule = { module, error: null, functions: [] };
    try {
      const exports = await importModule(join(outDir, file));
      result.functions = functionsOf(exports);
      const defaultExport = exports.default as Record<string, unknown> | undefined;
      if (module === "schema") result.schema = JSON.parse((defaultExport as { export(): string }).export());
      if (module === "auth.config") result.authConfig = JSON.parse(JSON.stringify(defaultExport ?? null));
      if (module === "http") {
        const router = defaultExport as { isRouter?: boolean; getRoutes?: () => unknown[] } | undefined;
        result.router = { isRouter: router?.isRouter === true, routes: router?.getRoutes?.().length ?? 0 };
      }
      if (module === "crons") {
        const jobs = (defaultExport as { crons?: Record<string, { name: string }> } | undefined)?.crons ?? {};
        result.crons = Object.fromEntries(Object.entries(jobs).map(([name, job]) => [name, job.name]));
      }
    } catch (error) {
      result.error = message(error);
    }
    results.push(result);
  }
  return results;
}

const [outDir, runtime, requestFile] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestFile!, "utf8")) as EvaluationRequest;
let importModule: (file: string) => Promise<Record<string, unknown>>;
if (runtime === "default") {
  importModule = isolateImporter(request.env);
} else {
  // A deployment's Node actions see its environment variables, nothing of this machine's.
  for (const name of Object.keys(process.env)) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, request.env);
  importModule = async (file) => (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}
process.stdout.write(JSON.stringify(await evaluate(outDir!, request, importModule)));
