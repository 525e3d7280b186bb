import { compareValues } from "convex/values";
import type { JSONValue, Value } from "convex/values";
import { fieldValue, queryValue } from "./indexKeys.js";
import type { Query } from "./indexKeys.js";
import type { StoredDocument } from "./store.js";

// The filter expressions of `.filter()`, evaluated as convex-test does.
type FilterExpression = Record<string, unknown>;

export function filtersOf(query: Query): unknown[] {
  return query.operators
    .filter((operator): operator is { filter: unknown } => "filter" in operator)
    .map((operator) => operator.filter);
}

export function compileFilters(filters: unknown[]): (doc: StoredDocument) => boolean {
  return (doc) => filters.every((filter) => Boolean(evaluateFilter(doc, filter as FilterExpression)));
}

function evaluateFilter(doc: StoredDocument, filter: FilterExpression): unknown {
  const pair = (name: string) =>
    (filter[name] as FilterExpression[]).map((child) => evaluateFilter(doc, child)) as [Value, Value];
  if (filter.$eq !== undefined) return compareValues(...pair("$eq")) === 0;
  if (filter.$neq !== undefined) return compareValues(...pair("$neq")) !== 0;
  if (filter.$and !== undefined)
    return (filter.$and as FilterExpression[]).every((child) => evaluateFilter(doc, child));
  if (filter.$or !== undefined) return (filter.$or as FilterExpression[]).some((child) => evaluateFilter(doc, child));
  if (filter.$not !== undefined) return !evaluateFilter(doc, filter.$not as FilterExpression);
  // convex-test compares these with JavaScript's operators.
  if (filter.$gt !== undefined) return pair("$gt")[0]! > pair("$gt")[1]!;
  if (filter.$gte !== undefined) return pair("$gte")[0]! >= pair("$gte")[1]!;
  if (filter.$lt !== undefined) return pair("$lt")[0]! < pair("$lt")[1]!;
  if (filter.$lte !== undefined) return pair("$lte")[0]! <= pair("$lte")[1]!;
  if (filter.$add !== undefined) return (pair("$add")[0] as number) + (pair("$add")[1] as number);
  if (filter.$sub !== undefined) return (pair("$sub")[0] as number) - (pair("$sub")[1] as number);
  if (filter.$mul !== undefined) return (pair("$mul")[0] as number) * (pair("$mul")[1] as number);
  if (filter.$div !== undefined) return (pair("$div")[0] as number) / (pair("$div")[1] as number);
  if (filter.$mod !== undefined) return (pair("$mod")[0] as number) % (pair("$mod")[1] as number);
  if (filter.$field !== undefined) return fieldValue(doc, filter.$field as string);
  if (filter.$literal !== undefined) return queryValue(filter.$literal as JSONValue);
  // Every operator Convex's filter syntax has is handled above; anything else is a malformed expression.
  throw new Error(`Unknown filter expression: ${JSON.stringify(filter)}`);
}
