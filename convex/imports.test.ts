// The layering of convex/ (ARCHITECTURE §2): a top-level module is a domain's functions and
// depends only on the shared pieces (functions, validators, core/, lib/, the generated code and
// the deployment's env and schema), never on another domain's module; core/ and lib/ never reach
// up into a domain module, and lib/ stays pure (no core/).
import { describe, expect, test } from "vitest";

const sources = import.meta.glob<string>(
  ["./*.ts", "./core/**/*.ts", "./lib/**/*.ts", "./tables/**/*.ts", "!./**/*.test.ts"],
  {
    query: "?raw",
    import: "default",
    eager: true,
  },
);

/** Shared pieces every module may import: not domains. */
const SHARED = new Set(["functions", "validators", "env", "schema"]);
/** Framework wiring that is not a domain: the HTTP router mounts Convex Auth's routes. */
const WIRING: Record<string, readonly string[]> = { http: ["auth"] };

/** "./core/x.ts" → "core/x"; relative specifiers resolved against the importer's folder. */
function resolve(from: string, specifier: string): string {
  const parts = from.replace(/^\.\//, "").split("/").slice(0, -1);
  for (const segment of specifier.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== ".") parts.push(segment);
  }
  return parts.join("/").replace(/\.ts$/, "");
}

function importsOf(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1]);
  return [...new Set(specifiers.map((specifier) => resolve(file, specifier)))];
}

/** module → the convex/ modules it imports (generated code left out). */
const graph = new Map(
  Object.entries(sources).map(([file, source]) => [
    resolve(file, "./" + file.split("/").pop()),
    importsOf(file, source).filter((target) => !target.startsWith("_generated/")),
  ]),
);

function isTopLevel(module: string): boolean {
  return !module.includes("/");
}

function isDomain(module: string): boolean {
  return isTopLevel(module) && !SHARED.has(module) && !module.endsWith(".helpers") && !module.endsWith(".fixture");
}

describe("convex/ import graph", () => {
  test("reads the modules", () => {
    expect(graph.has("tests")).toBe(true);
    expect(graph.get("tests")).toContain("functions");
    expect(graph.has("core/pipeline/record")).toBe(true);
  });

  test("no domain module imports another domain module", () => {
    const crossings = [...graph]
      .filter(([module]) => isTopLevel(module))
      .flatMap(([module, targets]) =>
        targets
          .filter((target) => isDomain(target) && !(WIRING[module] ?? []).includes(target))
          .map((target) => `${module} → ${target}`),
      );
    expect(crossings).toEqual([]);
  });

  test("core/ and lib/ never import a domain module, and lib/ never imports core/", () => {
    const upward = [...graph]
      .filter(([module]) => !isTopLevel(module))
      .flatMap(([module, targets]) =>
        targets
          .filter((target) => isDomain(target) || (module.startsWith("lib/") && target.startsWith("core/")))
          .map((target) => `${module} → ${target}`),
      );
    expect(upward).toEqual([]);
  });

  test("the schema is declarations only: schema, tables/ and validators import only tables/, lib/ and validators", () => {
    const declarations = [...graph].filter(
      ([module]) => module === "schema" || module === "validators" || module.startsWith("tables/"),
    );
    expect(declarations.map(([module]) => module)).toContain("tables/teams");
    const reaching = declarations.flatMap(([module, targets]) =>
      targets
        .filter((target) => target !== "validators" && !target.startsWith("tables/") && !target.startsWith("lib/"))
        .map((target) => `${module} → ${target}`),
    );
    expect(reaching).toEqual([]);
  });
});
