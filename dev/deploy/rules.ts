// The push-time rules a deployment applies to what `npx convex deploy` sends, with its messages:
// the schema and its indexes, the auth config, the evaluated modules and the code size.
// Sources: Convex's limits page (npm-packages/docs/docs/production/state/limits.mdx in
// get-convex/convex-backend, snapshot of 2026-08-22) and the backend's own checks
// (crates/common/src/bootstrap_model/index/index_validation_error.rs, schemas/json.rs, knobs.rs).
import type { Bundle } from "./bundle.js";
import type { EvaluatedModule } from "./evaluateModules.js";

/** "Tables" (per deployment), limits page. */
export const MAX_TABLES = 10_000;
/**
 * "Indexes per table", limits page: 32. The backend's own constant (crates/common/src/schemas/mod.rs
 * MAX_INDEXES_PER_TABLE) is 64 and counts database, text and vector indexes together; the page's
 * stricter figure is the one checked.
 */
export const MAX_INDEXES_PER_TABLE = 32;
/** "Fields per index", limits page; MAX_INDEX_FIELDS_SIZE. */
export const MAX_INDEX_FIELDS = 16;
/** "Index name length", limits page. */
export const MAX_INDEX_NAME_LENGTH = 64;
/** "Search indexes per table", "Vector indexes per table", "Filters per search/vector index". */
export const MAX_SEARCH_INDEXES = 4;
export const MAX_VECTOR_INDEXES = 4;
export const MAX_FILTER_FIELDS = 16;
/** "Code size", limits page: 32 MiB per deployment. */
export const MAX_CODE_BYTES = 32 * 1024 * 1024;
/** knobs.rs MAX_USER_MODULES. */
export const MAX_MODULES = 4096;

const IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const RESERVED_INDEX_NAMES = new Set(["by_id", "by_creation_time"]);

type IndexJson = { indexDescriptor: string; fields?: string[] };
type SearchIndexJson = { indexDescriptor: string; searchField: string; filterFields: string[] };
type VectorIndexJson = { indexDescriptor: string; vectorField: string; dimensions: number; filterFields: string[] };
type TableJson = {
  tableName: string;
  indexes: IndexJson[];
  searchIndexes?: SearchIndexJson[];
  vectorIndexes?: VectorIndexJson[];
  stagedDbIndexes?: IndexJson[];
  stagedSearchIndexes?: SearchIndexJson[];
  stagedVectorIndexes?: VectorIndexJson[];
};
export type SchemaJson = { tables: TableJson[] };

function indexFieldErrors(table: string, index: IndexJson): string[] {
  const fields = index.fields ?? [];
  const errors: string[] = [];
  if (fields.length === 0)
    errors.push(`In table "${table}" index "${index.indexDescriptor}" must have at least one field.`);
  if (fields.length > MAX_INDEX_FIELDS) errors.push(`Indexes may have up to ${MAX_INDEX_FIELDS} fields.`);
  const seen = new Set<string>();
  for (const field of fields) {
    if (field === "_id") errors.push("`_id` is not a valid index field. To load documents by ID, use `db.get(id)`.");
    else if (field === "_creationTime")
      errors.push(
        "`_creationTime` is automatically added to the end of each index. It should not be added explicitly in the index definition. See https://docs.convex.dev/using/indexes for more details.",
      );
    else if (field.startsWith("_")) errors.push("Reserved fields (starting with `_`) are not allowed in indexes.");
    else if (!field.split(".").every((part) => /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(part)))
      errors.push(`In index "${index.indexDescriptor}": Invalid index field: "${field}"`);
    if (seen.has(field)) errors.push(`Duplicate field ${field}. Index fields must be unique within an index.`);
    seen.add(field);
  }
  return errors;
}

function indexNameErrors(table: string, name: string): string[] {
  if (name.startsWith("_") || RESERVED_INDEX_NAMES.has(name)) {
    return [
      `In table "${table}" cannot name an index "${name}" because the name is reserved. Indexes may not start with an underscore or be named "by_id" or "by_creation_time".`,
    ];
  }
  if (!IDENTIFIER.test(name) || name.length > MAX_INDEX_NAME_LENGTH) {
    return [
      `Invalid index name: "${name}". Identifiers must be 64 characters or less, start with a letter, and only contain letters, digits, underscores.`,
    ];
  }
  return [];
}

/** The schema's errors as a push reports them; none for a schema a deployment accepts. */
export function checkSchema(schema: SchemaJson): string[] {
  const errors: string[] = [];
  if (schema.tables.length > MAX_TABLES) errors.push(`Number of tables cannot exceed ${MAX_TABLES}.`);
  for (const table of schema.tables) {
    const name = table.tableName;
    if (name.startsWith("_")) {
      errors.push(`${name} is a reserved table name.`);
      continue;
    }
    if (!IDENTIFIER.test(name)) {
      errors.push(
        `Invalid table name: "${name}". Identifiers must start with a letter and can only contain letters, digits, and underscores.`,
      );
      continue;
    }
    const database = [...table.indexes, ...(table.stagedDbIndexes ?? [])];
    const search = [...(table.searchIndexes ?? []), ...(table.stagedSearchIndexes ?? [])];
    const vector = [...(table.vectorIndexes ?? []), ...(table.stagedVectorIndexes ?? [])];
    if (database.length + search.length + vector.length > MAX_INDEXES_PER_TABLE) {
      errors.push(`Table "${name}" cannot have more than ${MAX_INDEXES_PER_TABLE} indexes.`);
    }
    if (search.length > MAX_SEARCH_INDEXES)
      errors.push(`Table "${name}" has more than ${MAX_SEARCH_INDEXES} search indexes.`);
    if (vector.length > MAX_VECTOR_INDEXES)
      errors.push(`Table "${name}" has more than ${MAX_VECTOR_INDEXES} vector indexes.`);
    const names = new Set<string>();
    for (const index of [...database, ...search, ...vector]) {
      if (names.has(index.indexDescriptor)) {
        errors.push(`Table "${name}" has two or more definitions of index "${index.indexDescriptor}".`);
      }
      names.add(index.indexDescriptor);
      errors.push(...indexNameErrors(name, index.indexDescriptor));
    }
    const byFields = new Map<string, string>();
    for (const index of database) {
      errors.push(...indexFieldErrors(name, index));
      const key = JSON.stringify(index.fields ?? []);
      const same = byFields.get(key);
      if (same !== undefined) {
        errors.push(
          `In table "${name}" index "${index.indexDescriptor}" and index "${same}" have the same fields. Indexes must be unique within a table.`,
        );
      }
      byFields.set(key, index.indexDescriptor);
    }
    for (const index of [...search, ...vector]) {
      if (index.filterFields.length > MAX_FILTER_FIELDS) {
        errors.push(`Search indexes may have up to ${MAX_FILTER_FIELDS} filter fields.`);
      }
    }
    for (const index of vector) {
      if (!(index.dimensions >= 2 && index.dimensions <= 4096)) {
        errors.push(`Vector index "${index.indexDescriptor}" of table "${name}" must have 2 to 4096 dimensions.`);
      }
    }
  }
  return errors;
}

type Provider = {
  domain?: unknown;
  applicationID?: unknown;
  type?: unknown;
  issuer?: unknown;
  jwks?: unknown;
  algorithm?: unknown;
};

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    return ["https:", "http:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** auth.config.ts's errors: each provider an OIDC issuer (domain, applicationID) or a custom JWT one. */
export function checkAuthConfig(config: unknown): string[] {
  const providers = (config as { providers?: unknown } | null)?.providers;
  if (!Array.isArray(providers)) return ["auth.config.ts must export default { providers: [...] }."];
  const errors: string[] = [];
  providers.forEach((raw: Provider, index) => {
    const where = `auth.config.ts providers[${index}]`;
    if (raw.type === "customJwt") {
      if (!isHttpUrl(raw.issuer)) errors.push(`${where}: issuer must be a URL, not ${JSON.stringify(raw.issuer)}.`);
      if (!isHttpUrl(raw.jwks)) errors.push(`${where}: jwks must be a URL, not ${JSON.stringify(raw.jwks)}.`);
      if (raw.algorithm !== "RS256" && raw.algorithm !== "ES256")
        errors.push(`${where}: algorithm must be RS256 or ES256.`);
      return;
    }
    // An unset environment variable leaves the domain undefined: the push fails on it.
    if (!isHttpUrl(raw.domain)) errors.push(`${where}: domain must be a URL, not ${JSON.stringify(raw.domain)}.`);
    if (typeof raw.applicationID !== "string" || raw.applicationID === "") {
      errors.push(`${where}: applicationID must be a non-empty string.`);
    }
  });
  return errors;
}

/** Errors of the evaluated modules: a module that fails to load, bad validators, Node-only rules, crons. */
export function checkModules(modules: (EvaluatedModule & { runtime: "default" | "node" })[]): string[] {
  const errors: string[] = [];
  const functions = new Map<string, string>();
  for (const module of modules) {
    if (module.error !== null) errors.push(`Failed to analyze ${module.module}.js: ${module.error}`);
    for (const fn of module.functions) {
      functions.set(`${module.module}:${fn.name}`, fn.kind);
      if (fn.error !== null) errors.push(`${module.module}:${fn.name}: invalid validator: ${fn.error}`);
      if (module.runtime === "node" && (fn.kind === "query" || fn.kind === "mutation")) {
        errors.push(
          `${module.module}:${fn.name} is a ${fn.kind} in a "use node" module: only actions can run in the Node.js runtime.`,
        );
      }
    }
    if (module.module === "http" && module.router !== undefined && !module.router.isRouter) {
      errors.push("http.ts must export default an HttpRouter (httpRouter()).");
    }
  }
  const crons = modules.find((module) => module.module === "crons")?.crons ?? {};
  for (const [job, path] of Object.entries(crons)) {
    const kind = functions.get(path);
    if (kind !== "mutation" && kind !== "action") {
      errors.push(
        `Cron job "${job}" runs ${path}, which is ${kind === undefined ? "not a function" : `a ${kind}`}: crons run mutations and actions.`,
      );
    }
  }
  return errors;
}

/** The bundled code's size and module count against Convex's limits. */
export function checkCodeSize(bundles: Bundle[]): { bytes: number; modules: number; errors: string[] } {
  let bytes = 0;
  let modules = 0;
  for (const bundle of bundles) {
    modules += bundle.entries.length;
    for (const output of bundle.outputs) bytes += output.contents.length;
  }
  const errors: string[] = [];
  if (bytes > MAX_CODE_BYTES)
    errors.push(`The functions' code is ${bytes} bytes, over Convex's ${MAX_CODE_BYTES} (32 MiB) per deployment.`);
  if (modules > MAX_MODULES) errors.push(`${modules} modules, over Convex's ${MAX_MODULES}.`);
  return { bytes, modules, errors };
}
