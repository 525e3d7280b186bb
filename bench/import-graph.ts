/**
 * The import graph of convex/'s top-level modules, for the layering note (convex/imports.test.ts
 * is the check): each module and the convex/ pieces it imports, domain modules marked.
 *
 *   npx tsx bench/import-graph.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const root = join(import.meta.dirname, "..", "convex");
const SHARED = new Set(["functions", "validators", "env", "schema"]);
/** Framework wiring, not a domain dependency: the HTTP router mounts Convex Auth's routes. */
const WIRING: Record<string, readonly string[]> = { http: ["auth"] };

/** Test harnesses and seed fixtures (two dots in the name) are not deployed and may import anything. */
const modules = readdirSync(root).filter((file) => file.endsWith(".ts") && file.split(".").length === 2);
let crossings = 0;
for (const file of modules.sort()) {
  const source = readFileSync(join(root, file), "utf8");
  const targets = new Set(
    [...source.matchAll(/(?:from|import)\s*\(?\s*"\.\/([^"]+)"/g)]
      .map((match) => match[1].replace(/\.ts$/, ""))
      .map((target) => (target.includes("/") ? target.split("/")[0] + "/" : target))
      .filter((target) => target !== "_generated/"),
  );
  const name = file.replace(/\.ts$/, "");
  const domains = [...targets].filter(
    (target) => !target.endsWith("/") && !SHARED.has(target) && !(WIRING[name] ?? []).includes(target),
  );
  crossings += domains.length;
  console.log(
    `${name.padEnd(16)} → ${[...targets].sort().join(", ")}${domains.length ? `   [domain: ${domains.join(", ")}]` : ""}`,
  );
}
console.log(
  `\n${crossings} import(s) of one domain module by another (functions, validators, env, schema and the http → auth wiring are not domains)`,
);

// ── Floors and cycles over every deployed file of convex/ (lib/, core/, tables/ included) ──
// A file's floor is the longest chain of imports below it (a file importing nothing of convex/
// stands on floor 0). Generated code (_generated/) counts as a leaf: its api.d.ts lists every
// module by design, so cycles through it are not counted.

function deployedFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === "_generated" ? [] : deployedFiles(path);
    return entry.endsWith(".ts") && entry.split(".").length === 2 ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const base = join(dirname(from), specifier.replace(/\.js$/, ""));
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return base.includes("_generated") ? base : null;
}

const files = deployedFiles(root);
const edges = new Map<string, string[]>();
for (const file of files) {
  const source = readFileSync(file, "utf8");
  const targets = [...source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)]
    .map((match) => resolveImport(file, match[1]))
    .filter((target): target is string => target !== null && !target.includes("_generated"));
  edges.set(file, [...new Set(targets)]);
}

// Tarjan's strongly connected components: a component of more than one file is a cycle.
let index = 0;
const order = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const cycles: string[][] = [];
function connect(file: string): void {
  order.set(file, index);
  low.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const next of edges.get(file) ?? []) {
    if (!order.has(next)) {
      connect(next);
      low.set(file, Math.min(low.get(file)!, low.get(next)!));
    } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
  }
  if (low.get(file) === order.get(file)) {
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component);
  }
}
for (const file of files) if (!order.has(file)) connect(file);

const floors = new Map<string, number>();
function floorOf(file: string, seen = new Set<string>()): number {
  const known = floors.get(file);
  if (known !== undefined) return known;
  if (seen.has(file)) return 0; // inside a cycle: reported above
  seen.add(file);
  const floor = Math.max(-1, ...(edges.get(file) ?? []).map((next) => floorOf(next, seen))) + 1;
  floors.set(file, floor);
  return floor;
}
const name = (file: string) => relative(root, file).replace(/\.ts$/, "");
const highest = Math.max(...files.map((file) => floorOf(file)));
console.log(`\nfloors: convex/schema on floor ${floorOf(join(root, "schema.ts"))} of ${highest}`);
console.log(`schema imports: ${(edges.get(join(root, "schema.ts")) ?? []).map(name).sort().join(", ")}`);
console.log(`${cycles.length} import cycle(s) outside generated code`);
for (const cycle of cycles) console.log(`  cycle: ${cycle.map(name).sort().join(" ↔ ")}`);
