// Reading the parameters of a form-encoded request (./form.ts parses it), and Stripe-like ids.
import { randomBytes } from "node:crypto";
import { invalid, StripeApiError } from "./errors";
import type { FormObject, FormValue } from "./form";

export function randomId(prefix: string, length = 24): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const bytes = randomBytes(length);
  let id = "";
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}_${id}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function asObject(value: FormValue | undefined): FormObject | undefined {
  return value !== undefined && typeof value === "object" && !Array.isArray(value) ? value : undefined;
}

export function asString(value: FormValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function optionalString(params: FormObject, key: string): string | null {
  const value = asString(params[key]);
  return value === undefined || value === "" ? null : value;
}

export function integer(value: FormValue | undefined, param: string, minimum: number): number {
  const text = asString(value);
  if (text === undefined || !/^-?\d+$/.test(text)) throw invalid(param, `Invalid integer: ${String(text ?? "")}`);
  const number = Number(text);
  if (number < minimum) throw invalid(param, `This value must be greater than or equal to ${minimum}.`);
  return number;
}

export function stringRecord(value: FormValue | undefined, param: string): Record<string, string> {
  if (value === undefined || value === "") return {};
  const object = asObject(value);
  if (!object)
    throw new StripeApiError(400, `Invalid object`, "invalid_request_error", "parameter_invalid_empty", param);
  const record: Record<string, string> = {};
  for (const [key, entry] of Object.entries(object)) {
    if (typeof entry !== "string")
      throw new StripeApiError(
        400,
        `Invalid value for ${param}[${key}].`,
        "invalid_request_error",
        undefined,
        `${param}[${key}]`,
      );
    record[key] = entry;
  }
  return record;
}

export function expandList(params: FormObject): string[] {
  const expand = params.expand;
  if (Array.isArray(expand)) return expand.filter((item): item is string => typeof item === "string");
  return typeof expand === "string" ? [expand] : [];
}
