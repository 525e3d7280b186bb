// The checks a push runs, before anything is deployed: bundle convex/ for both runtimes, evaluate
// every module in its runtime, validate the schema and its indexes and the auth config, and check
// the code size against Convex's limits (rules.ts). Exits 1 with the push's messages on a failure.
//   npm run check:deploy [-- convexDir]   (CI: .ci/run)
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleConvex } from "./bundle.js";
import { evaluateBundles } from "./evaluate.js";
import { checkAuthConfig, checkCodeSize, checkModules, checkSchema } from "./rules.js";
import type { SchemaJson } from "./rules.js";

export type DeployCheck = {
  /** What passed, one line each. */
  passed: string[];
  /** The push's errors, by step. */
  errors: { step: string; messages: string[] }[];
};

export async function checkDeploy(convexDir: string): Promise<DeployCheck> {
  const dir = resolve(convexDir);
  const passed: string[] = [];
  const errors: DeployCheck["errors"] = [];
  const step = (name: string, messages: string[], summary: string) => {
    if (messages.length > 0) errors.push({ step: name, messages });
    else passed.push(summary);
  };

  const bundles = await bundleConvex(dir);
  for (const bundle of bundles) {
    const runtime = bundle.runtime === "default" ? "default (Convex) runtime" : "Node.js runtime";
    step(`bundle for the ${runtime}`, bundle.errors, `bundled ${bundle.entries.length} modules for the ${runtime}`);
  }
  if (errors.length > 0) return { passed, errors };

  const size = checkCodeSize(bundles);
  step(
    "code size",
    size.errors,
    `code size ${(size.bytes / 1024 / 1024).toFixed(2)} MiB of 32 MiB, ${size.modules} modules`,
  );

  const modules = await evaluateBundles(bundles);
  const functionCount = modules.reduce((count, module) => count + module.functions.length, 0);
  step(
    "evaluate modules",
    checkModules(modules),
    `evaluated ${modules.length} modules in their runtimes: ${functionCount} functions`,
  );

  const schema = modules.find((module) => module.module === "schema");
  if (schema?.schema !== undefined) {
    const tables = (schema.schema as SchemaJson).tables;
    const indexes = tables.reduce((count, table) => count + table.indexes.length, 0);
    step("schema", checkSchema(schema.schema as SchemaJson), `schema: ${tables.length} tables, ${indexes} indexes`);
  }
  const auth = modules.find((module) => module.module === "auth.config");
  if (auth !== undefined && auth.error === null) {
    step("auth config", checkAuthConfig(auth.authConfig), "auth.config.ts: providers valid");
  }
  return { passed, errors };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? "convex";
  const result = await checkDeploy(dir);
  for (const line of result.passed) console.log(`ok  ${line}`);
  for (const { step, messages } of result.errors) {
    console.error(`FAIL ${step} (${relative(process.cwd(), resolve(dir)) || "."}):`);
    for (const message of messages) console.error(`  ${message}`);
  }
  process.exit(result.errors.length > 0 ? 1 : 0);
}
