/**
 * The import graph of convex/'s top-level modules, for the layering note (convex/imports.test.ts
 * is the check): each module and the convex/ pieces it imports, domain modules marked.
 *
 *   npx tsx bench/import-graph.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

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
