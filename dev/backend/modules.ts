import { readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { getFunctionName } from "convex/server";
import { convexToJson } from "convex/values";
import type { Value } from "convex/values";
import { meter } from "./meter.js";
import { matches, validate } from "./returns.js";
import type { ValidatorJson } from "./returns.js";

export type ModuleLoaders = Record<string, () => Promise<Record<string, unknown>>>;

const MODULE_FILE = /\.(ts|js|mts|mjs|tsx|jsx)$/;

// Like `convex deploy`: files with more than one dot in their name (tests,
// "test.helpers.ts", declarations) are not modules, except auth.config.ts.
function isDeployedModule(fileName: string): boolean {
  if (!MODULE_FILE.test(fileName)) return false;
  if (fileName === "auth.config.ts" || fileName === "auth.config.js") return true;
  return fileName.split(".").length === 2;
}

/**
 * The module map `convexTest` wants, as `import.meta.glob("./**")` would give
 * it from inside convex/: keys like "./users.ts" and "./_generated/api.js".
 * convex-test strips the extension and finds the root by the "_generated" key.
 *
 * `instance` (from the second backend of a process on) is added to the URLs
 * so each backend evaluates the modules afresh, under its own environment
 * (auth.config.ts reads CONVEX_SITE_URL when it loads). Modules they import
 * are shared.
 */
export function collectModules(convexDir: string, instance = 0): ModuleLoaders {
  const loaders: ModuleLoaders = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (entry !== "node_modules" && !entry.startsWith(".")) walk(path);
        continue;
      }
      if (!isDeployedModule(entry)) continue;
      const key = "./" + relative(convexDir, path).split(sep).join("/");
      const url = pathToFileURL(path).href + (instance > 0 ? `?backend=${instance}` : "");
      const moduleName = key.slice(2).replace(/\.[jt]s$/, "");
      // convex-test asks for the module on every function call; a dynamic import() goes through
      // the module loader (and tsx's hooks thread) each time, about half a millisecond.
      let loaded: Promise<Record<string, unknown>> | null = null;
      loaders[key] = () =>
        (loaded ??= import(/* @vite-ignore */ url).then(
          (module: Record<string, unknown>) => forConvexTest(moduleName, countInvocations(moduleName, module)),
          (error: unknown) => {
            loaded = null;
            throw error;
          },
        ));
    }
  };
  walk(convexDir);
  if (!Object.keys(loaders).some((key) => key.startsWith("./_generated/"))) {
    throw new Error(`${convexDir}/_generated is missing; run \`npm run codegen\` first.`);
  }
  return loaders;
}

export type FunctionKind = "query" | "mutation" | "action";
export type FunctionInfo = {
  kind: FunctionKind | "httpAction";
  visibility: "public" | "internal";
};

type RegisteredFunction = {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  isHttp?: boolean;
  isPublic?: boolean;
  isInternal?: boolean;
};

/** Looks up exported Convex functions by path ("dir/file:name"). */
export class FunctionDirectory {
  private readonly byModulePath = new Map<string, () => Promise<Record<string, unknown>>>();
  // Modules never change while the backend runs.
  private readonly descriptions = new Map<string, Promise<FunctionInfo | null>>();

  constructor(loaders: ModuleLoaders) {
    for (const [key, load] of Object.entries(loaders)) {
      this.byModulePath.set(key.slice(2).replace(/\.[^.]+$/, ""), load);
    }
  }

  hasModule(modulePath: string): boolean {
    return this.byModulePath.has(modulePath);
  }

  async loadModule(modulePath: string): Promise<Record<string, unknown> | null> {
    const load = this.byModulePath.get(modulePath);
    return load ? await load() : null;
  }

  /** The function's kind and visibility, or null when nothing is exported there. */
  describe(udfPath: string): Promise<FunctionInfo | null> {
    let description = this.descriptions.get(udfPath);
    if (description === undefined) {
      description = this.describeUncached(udfPath);
      this.descriptions.set(udfPath, description);
    }
    return description;
  }

  private async describeUncached(udfPath: string): Promise<FunctionInfo | null> {
    const { modulePath, exportName } = splitUdfPath(udfPath);
    const module = await this.loadModule(modulePath);
    const exported = module?.[exportName] as RegisteredFunction | undefined;
    if (!exported || (typeof exported !== "object" && typeof exported !== "function")) {
      return null;
    }
    const kind = exported.isQuery
      ? "query"
      : exported.isMutation
        ? "mutation"
        : exported.isAction
          ? "action"
          : exported.isHttp
            ? "httpAction"
            : null;
    if (kind === null) return null;
    return { kind, visibility: exported.isPublic ? "public" : "internal" };
  }
}

/** "messages:list" → {messages, list}; "messages" → {messages, default}. */
export function splitUdfPath(udfPath: string): { modulePath: string; exportName: string } {
  const [rawModule, exportName = "default"] = udfPath.split(":");
  return { modulePath: rawModule!.replace(/\.(js|ts)$/, ""), exportName };
}

/** The form the client and convex-test use: "module:export" without extension. */
export function canonicalUdfPath(udfPath: string): string {
  const { modulePath, exportName } = splitUdfPath(udfPath);
  return `${modulePath}:${exportName}`;
}

type Handler = (...args: unknown[]) => unknown;

/**
 * How a query's or mutation's handler runs in its transaction (transactions.ts sets it), and how an
 * action's ctx.runQuery, ctx.runMutation and ctx.runAction run: through the backend, which gives
 * each a slot of its kind (runtime.ts, engine.ts).
 */
export const handlerHooks: {
  transaction: (kind: "query" | "mutation", path: string, handler: Handler) => Handler;
  nestedCall: <T>(kind: FunctionKind, path: string, args: Record<string, Value>, work: () => Promise<T>) => Promise<T>;
} = { transaction: (_kind, _path, handler) => handler, nestedCall: (_kind, _path, _args, work) => work() };

type ActionCtx = Record<string, unknown> & {
  runQuery: (reference: unknown, args?: Record<string, Value>) => Promise<unknown>;
  runMutation: (reference: unknown, args?: Record<string, Value>) => Promise<unknown>;
  runAction: (reference: unknown, args?: Record<string, Value>) => Promise<unknown>;
};

/** An action's context whose calls of functions go through `handlerHooks.nestedCall`. */
function withNestedCalls(ctx: ActionCtx): ActionCtx {
  const through =
    (kind: FunctionKind, run: ActionCtx["runQuery"]) => (reference: unknown, args?: Record<string, Value>) =>
      handlerHooks.nestedCall(kind, referencePath(reference), args ?? {}, () => run(reference, args));
  return {
    ...ctx,
    runQuery: through("query", ctx.runQuery),
    runMutation: through("mutation", ctx.runMutation),
    runAction: through("action", ctx.runAction),
  };
}

/** "module:name" of a function reference (or of a function handle's string). */
function referencePath(reference: unknown): string {
  try {
    return getFunctionName(reference as Parameters<typeof getFunctionName>[0]);
  } catch {
    return String(reference);
  }
}

/** Function runs since start, by "module:name"; benchmarks read invocations from it. */
export const invocationCounts = new Map<string, number>();
const counted = new WeakSet<object>();

/** Wraps each registered function's handler once so every run is counted. */
function countInvocations(moduleName: string, exports: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value !== "function") continue;
    const fn = value as unknown as { _handler?: (...args: unknown[]) => unknown };
    if (typeof fn._handler !== "function" || counted.has(fn)) continue;
    counted.add(fn);
    const path = `${moduleName}:${name}`;
    const handler = fn._handler;
    fn._handler = (...args: unknown[]) => {
      invocationCounts.set(path, (invocationCounts.get(path) ?? 0) + 1);
      return handler(...args);
    };
  }
  return exports;
}

type Exported = ((...args: unknown[]) => unknown) & {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  exportArgs?: () => string;
  exportReturns?: () => string;
  _handler?: (...args: unknown[]) => unknown;
};

/**
 * The module as convex-test gets it: each registered function as a copy whose validators' JSON
 * is built once (convex-test asks for it on every call) and, for a query with a `returns`
 * validator, whose return value is checked by returns.ts rather than by convex-test (same rules
 * and messages, without an exception per union member). The module's own exports are left as
 * they are.
 */
export function forConvexTest(moduleName: string, exports: Record<string, unknown>): Record<string, unknown> {
  const module: Record<string, unknown> = { ...exports };
  for (const [name, value] of Object.entries(exports)) {
    const fn = value as Exported;
    if (typeof value !== "function" || typeof fn._handler !== "function" || typeof fn.exportArgs !== "function") {
      continue;
    }
    const copy = Object.assign((...args: unknown[]) => fn(...args), fn) as Exported;
    const argsJson = fn.exportArgs();
    const returnsJson = fn.exportReturns?.() ?? "null";
    copy.exportArgs = () => argsJson;
    copy.exportReturns = () => returnsJson;
    const returns = JSON.parse(returnsJson) as ValidatorJson | null;
    const path = `${moduleName}:${name}`;
    if (fn.isQuery && returns !== null) {
      const handler = fn._handler;
      copy.exportReturns = () => "null";
      copy._handler = async (...args: unknown[]) => {
        const result = await handler(...args);
        checkReturnValue(returns, result, path);
        return result;
      };
    }
    if (fn.isQuery || fn.isMutation) {
      // The top level of a transaction runs until its reads are current (transactions.ts).
      const kind = fn.isQuery ? "query" : "mutation";
      const handler = copy._handler!;
      copy._handler = (...args: unknown[]) => handlerHooks.transaction(kind, path, handler)(...args);
    } else if (fn.isAction) {
      const handler = copy._handler!;
      copy._handler = async (ctx: unknown, ...args: unknown[]) => {
        meter.recordCall(path);
        const began = performance.now();
        try {
          return await handler(withNestedCalls(ctx as ActionCtx), ...args);
        } catch (error) {
          meter.recordFailure(path);
          throw error;
        } finally {
          meter.recordAction(path, performance.now() - began);
        }
      };
    }
    module[name] = copy;
  }
  return module;
}

/** Throws convex-test's error for a query result that does not fit its `returns` validator. */
function checkReturnValue(returns: ValidatorJson, result: unknown, path: string): void {
  const value = result === undefined ? null : result;
  if (matches(returns, value)) return;
  try {
    convexToJson(value as Value);
  } catch {
    // Not a Convex value: sending it fails first, with convex-test's own error.
    return;
  }
  try {
    validate(returns, value);
  } catch (error) {
    throw new Error(`Return value validation failed for query "${path}":\n${(error as Error).message}`, {
      cause: error,
    });
  }
}
