// A check's pattern compiled on re2js and its JSON Schema on @cfworker/json-schema, or the reason
// either is refused (a schema with keywords that would run on a backtracking RegExp, a "$ref"
// outside it).
import { Validator, type Schema } from "@cfworker/json-schema";
import { RE2JS } from "re2js";

/** The compiled pattern, or the reason it does not compile. */
export function compilePattern(pattern: string): { ok: true; regex: RE2JS } | { ok: false; message: string } {
  try {
    return { ok: true, regex: RE2JS.compile(pattern) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

const SCHEMA_TYPES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);
/** Keywords whose value is data, not a schema: not walked. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
const COUNT_KEYWORDS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/** The first problem with a schema's keywords, or null. */
function schemaShapeProblem(schema: unknown, path: string): string | null {
  if (typeof schema === "boolean") return null;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return `${path || "The schema"} must be an object or true/false.`;
  }
  const record = schema as Record<string, unknown>;
  const at = (key: string) => (path ? `${path}/${key}` : key);
  if ("pattern" in record && typeof record.pattern === "string") {
    return `'${at("pattern")}': patterns inside a schema are not supported; add a "Matches a regular expression" check instead.`;
  }
  if ("patternProperties" in record) {
    return `'${at("patternProperties")}': patterns inside a schema are not supported.`;
  }
  if ("type" in record) {
    const types = Array.isArray(record.type) ? record.type : [record.type];
    if (types.length === 0 || !types.every((type) => typeof type === "string" && SCHEMA_TYPES.has(type))) {
      return `'${at("type")}' must be one of ${[...SCHEMA_TYPES].join(", ")}.`;
    }
  }
  if ("required" in record) {
    if (!Array.isArray(record.required) || !record.required.every((name) => typeof name === "string")) {
      return `'${at("required")}' must be a list of property names.`;
    }
  }
  for (const key of COUNT_KEYWORDS) {
    if (key in record && !(Number.isInteger(record[key]) && (record[key] as number) >= 0)) {
      return `'${at(key)}' must be a whole number.`;
    }
  }
  for (const key of NUMBER_KEYWORDS) {
    if (key in record && typeof record[key] !== "number" && typeof record[key] !== "boolean") {
      return `'${at(key)}' must be a number.`;
    }
  }
  if ("enum" in record && !Array.isArray(record.enum)) return `'${at("enum")}' must be a list.`;
  for (const [key, value] of Object.entries(record)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (["properties", "$defs", "definitions", "dependentSchemas"].includes(key)) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return `'${at(key)}' must be an object.`;
      for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
        const problem = schemaShapeProblem(sub, `${at(key)}/${name}`);
        if (problem) return problem;
      }
    } else if (["allOf", "anyOf", "oneOf", "prefixItems"].includes(key)) {
      if (!Array.isArray(value)) return `'${at(key)}' must be a list of schemas.`;
      for (const [index, sub] of value.entries()) {
        const problem = schemaShapeProblem(sub, `${at(key)}/${index}`);
        if (problem) return problem;
      }
    } else if (
      [
        "items",
        "additionalItems",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
      ].includes(key)
    ) {
      const subs = Array.isArray(value) ? value : [value];
      for (const [index, sub] of subs.entries()) {
        const problem = schemaShapeProblem(sub, Array.isArray(value) ? `${at(key)}/${index}` : at(key));
        if (problem) return problem;
      }
    }
  }
  return null;
}

/** The first "$ref" that does not point inside the schema, or null. */
function unresolvedRef(root: unknown, node: unknown = root): string | null {
  if (typeof node !== "object" || node === null) return null;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (key === "$ref" && typeof value === "string") {
      if (!value.startsWith("#")) return `'${value}': only references inside the schema ("#/…") are supported.`;
      if (value.startsWith("#/") || value === "#") {
        let target: unknown = root;
        for (const part of value.slice(2).split("/").filter(Boolean)) {
          const name = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
          target =
            typeof target === "object" && target !== null ? (target as Record<string, unknown>)[name] : undefined;
        }
        if (target === undefined) return `'${value}' points to nothing in the schema.`;
      }
    } else {
      const problem = unresolvedRef(root, value);
      if (problem) return problem;
    }
  }
  return null;
}

/** The compiled schema, or the reason it does not compile. */
export function compileSchema(text: string): { ok: true; validator: Validator } | { ok: false; message: string } {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return { ok: false, message: "This schema is not valid JSON." };
  }
  const problem = schemaShapeProblem(schema, "") ?? unresolvedRef(schema);
  if (problem) return { ok: false, message: `This schema does not compile: ${problem}` };
  try {
    const validator = new Validator(schema as Schema | boolean, "2020-12", false);
    // Unresolvable references surface on use: try the schema once on a few values.
    for (const sample of [null, {}, [], "", 0]) validator.validate(sample);
    return { ok: true, validator };
  } catch (error) {
    return {
      ok: false,
      message: `This schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
