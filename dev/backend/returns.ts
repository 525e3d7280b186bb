import { convexToJson } from "convex/values";
import type { Value } from "convex/values";

/**
 * The check of a query's return value against its `returns` validator, with convex-test's
 * rules and messages (`validateValidator` in node_modules/convex-test/dist/index.js) but not
 * its cost: convex-test tries each member of a union by throwing, an Error with a stack trace
 * per member that does not match, so a list of 50 rows whose field is the fourth literal of a
 * union threw 150 errors each time the query ran (2 ms of a 3 ms presence query). Here a
 * value is first matched without throwing; only a value that fails is checked the throwing way,
 * for convex-test's exact message.
 */

/** A validator's JSON (`exportReturns()`), as convex-test reads it. */
export type ValidatorJson = {
  type: string;
  value?: unknown;
  tableName?: string;
};

type FieldJson = { fieldType: ValidatorJson; optional: boolean };

/** convex-test's rule for the table of an id: digits, then the table's name. */
function tableNameFromId(id: string): string | null {
  const match = id.match(/^[0-9]+/);
  if (!match || match[0].length === id.length) return null;
  return id.slice(match[0].length);
}

function isSimpleObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  return prototype === null || prototype === Object.prototype || prototype.constructor?.name === "Object";
}

/**
 * Whether convex-test's check would accept `value`. With `undefinedIsAbsent` (a function's
 * result before it is sent as JSON) a field set to undefined counts as absent, as it will be;
 * without (a document as written), an unexpected field set to undefined does not fit.
 */
export function matches(validator: ValidatorJson, value: unknown, undefinedIsAbsent = true): boolean {
  switch (validator.type) {
    case "null":
      return value === null;
    case "number":
      return typeof value === "number";
    case "bigint":
      return typeof value === "bigint";
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "bytes":
      return value instanceof ArrayBuffer;
    case "literal":
      return value === validator.value;
    case "id":
      return typeof value === "string" && tableNameFromId(value) === validator.tableName;
    case "array":
      return (
        Array.isArray(value) &&
        value.every((item) => matches(validator.value as ValidatorJson, item, undefinedIsAbsent))
      );
    case "union":
      return (validator.value as ValidatorJson[]).some((member) => matches(member, value, undefinedIsAbsent));
    case "object": {
      if (typeof value !== "object" || value === null || !isSimpleObject(value)) return false;
      const fields = validator.value as Record<string, FieldJson>;
      const record = value as Record<string, unknown>;
      for (const key in fields) {
        const { fieldType, optional } = fields[key]!;
        if (record[key] === undefined) {
          if (!optional) return false;
        } else if (!matches(fieldType, record[key], undefinedIsAbsent)) return false;
      }
      // A field set to undefined is dropped on the way to the client, as if it were absent.
      for (const key of Object.keys(record)) {
        if (fields[key] === undefined && (record[key] !== undefined || !undefinedIsAbsent)) return false;
      }
      return true;
    }
    case "commitTs":
      return typeof value === "bigint";
    default:
      // "any", and what convex-test does not check ("record").
      return true;
  }
}

/** convex-test's `validateValidator`, message for message: throws when `value` does not fit `validator`. */
export function validate(validator: ValidatorJson, value: unknown): void {
  const show = (v: unknown) => String(v as string);
  switch (validator.type) {
    case "null":
      if (value !== null) throw new Error(`Validator error: Expected \`null\`, got \`${show(value)}\``);
      return;
    case "number":
      if (typeof value !== "number") throw new Error(`Validator error: Expected \`number\`, got \`${show(value)}\``);
      return;
    case "bigint":
      if (typeof value !== "bigint") throw new Error(`Validator error: Expected \`bigint\`, got \`${show(value)}\``);
      return;
    case "commitTs":
      if (typeof value !== "bigint") {
        throw new Error(`Validator error: Expected \`v.commitTs()\`, got \`${show(value)}\``);
      }
      return;
    case "boolean":
      if (typeof value !== "boolean") {
        throw new Error(`Validator error: Expected \`boolean\`, got \`${show(value)}\``);
      }
      return;
    case "string":
      if (typeof value !== "string") throw new Error(`Validator error: Expected \`string\`, got \`${show(value)}\``);
      return;
    case "bytes":
      if (!(value instanceof ArrayBuffer)) {
        throw new Error(`Validator error: Expected \`ArrayBuffer\`, got \`${show(value)}\``);
      }
      return;
    case "literal":
      if (value !== validator.value) {
        throw new Error(`Validator error: Expected \`${show(validator.value)}\`, got \`${show(value)}\``);
      }
      return;
    case "id":
      if (typeof value !== "string") throw new Error(`Validator error: Expected \`string\`, got \`${show(value)}\``);
      if (tableNameFromId(value) !== validator.tableName) {
        throw new Error(`Validator error: Expected ID for table "${validator.tableName}", got \`${value}\``);
      }
      return;
    case "array":
      if (!Array.isArray(value)) throw new Error(`Validator error: Expected \`Array\`, got \`${show(value)}\``);
      for (const item of value) validate(validator.value as ValidatorJson, item);
      return;
    case "union": {
      const members = validator.value as ValidatorJson[];
      if (!members.some((member) => matches(member, value))) {
        throw new Error(
          `Validator error: Expected one of ${members.map((member) => member.type).join(", ")}, got \`${JSON.stringify(convexToJson(value as Value))}\``,
        );
      }
      return;
    }
    case "object": {
      if (typeof value !== "object") throw new Error(`Validator error: Expected \`object\`, got \`${show(value)}\``);
      if (!isSimpleObject(value as object)) {
        throw new Error(`Validator error: Expected a plain old JavaScript \`object\`, got \`${show(value)}\``);
      }
      const fields = validator.value as Record<string, FieldJson>;
      const record = value as Record<string, unknown>;
      for (const [key, { fieldType, optional }] of Object.entries(fields)) {
        if (record[key] === undefined) {
          if (!optional) throw new Error(`Validator error: Missing required field \`${key}\` in object`);
        } else {
          validate(fieldType, record[key]);
        }
      }
      for (const key of Object.keys(record)) {
        if (fields[key] === undefined && record[key] !== undefined)
          throw new Error(`Validator error: Unexpected field \`${key}\` in object`);
      }
      return;
    }
  }
}
