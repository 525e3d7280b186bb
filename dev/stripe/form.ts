/**
 * Parses Stripe's form-encoded request bodies (and query strings) into nested
 * values, the way Stripe's API reads what the `stripe` client sends:
 * `line_items[0][price_data][unit_amount]=200&metadata[testId]=t1&expand[]=x`
 * → `{ line_items: [{ price_data: { unit_amount: '200' } }], metadata: { testId: 't1' }, expand: ['x'] }`.
 * Values stay strings, as on the wire; callers convert what they need.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const FORBIDDEN_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** Intermediate tree: objects only (null prototype), arrays come later. */
type Node = Map<string, Node | string>;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** `a[b][0][]` → ['a', 'b', '0', ''] */
function keyPath(rawKey: string): string[] | undefined {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
  if (!match) return undefined;
  const [, head = "", brackets = ""] = match;
  return [head, ...[...brackets.matchAll(/\[([^[\]]*)\]/g)].map((segment) => segment[1] ?? "")];
}

function insert(root: Node, path: readonly string[], value: string): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    let segment = path[i] ?? "";
    if (FORBIDDEN_KEYS.has(segment)) return;
    // `key[]` appends: give it the next free numeric index.
    if (segment === "") segment = String(node.size);
    if (i === path.length - 1) {
      node.set(segment, value);
      return;
    }
    const child = node.get(segment);
    if (child instanceof Map) {
      node = child;
    } else {
      const next: Node = new Map();
      node.set(segment, next);
      node = next;
    }
  }
}

function finish(node: Node): FormValue {
  const keys = [...node.keys()];
  const isList = keys.length > 0 && keys.every((key) => /^\d+$/.test(key));
  const convert = (value: Node | string): FormValue => (typeof value === "string" ? value : finish(value));
  if (isList) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => convert(node.get(key) as Node | string));
  }
  const object: FormObject = {};
  for (const key of keys) object[key] = convert(node.get(key) as Node | string);
  return object;
}

export function parseStripeForm(body: string): FormObject {
  const root: Node = new Map();
  for (const pair of body.split("&")) {
    if (pair === "") continue;
    const separator = pair.indexOf("=");
    const rawKey = decode(separator === -1 ? pair : pair.slice(0, separator));
    const value = separator === -1 ? "" : decode(pair.slice(separator + 1));
    const path = keyPath(rawKey);
    if (path) insert(root, path, value);
  }
  const result = finish(root);
  return Array.isArray(result) || typeof result === "string" ? {} : result;
}
