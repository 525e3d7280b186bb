// The files a config names: paths, globs, file:// references and parsed JSON or YAML files.
import picomatch from "picomatch";
import { parse as parseYaml } from "yaml";
import { type Context, refuse, type Where } from "./context";
import { type PromptfooFiles } from "./types";

export function normalPath(path: string): string {
  return path
    .replace(/^file:\/\//, "")
    .replace(/\\/g, "/")
    .split("/")
    .filter((part) => part !== ".")
    .join("/");
}

/** Files from a record (the setup page's picked files): by path, else by base name; globs by picomatch. */
export function filesFromRecord(
  record: Readonly<Record<string, string>>,
  options: { byBaseName?: boolean } = {},
): PromptfooFiles {
  const byBaseName = options.byBaseName ?? true;
  const names = Object.keys(record).map(normalPath);
  const byName = new Map(Object.entries(record).map(([name, text]) => [normalPath(name), text]));
  return {
    read(path) {
      const clean = normalPath(path);
      if (byName.has(clean)) return byName.get(clean);
      if (!byBaseName) return undefined;
      const base = clean.split("/").pop() ?? clean;
      const matches = names.filter((name) => (name.split("/").pop() ?? name) === base);
      return matches.length === 1 ? byName.get(matches[0]) : undefined;
    },
    glob(pattern) {
      const isMatch = picomatch(normalPath(pattern));
      const baseMatch = picomatch(normalPath(pattern).split("/").pop() ?? pattern);
      const found = names.filter((name) => isMatch(name));
      if (!byBaseName) return found.sort();
      return (found.length > 0 ? found : names.filter((name) => baseMatch(name.split("/").pop() ?? name))).sort();
    },
  };
}

export const SCRIPT = /\.(js|cjs|mjs|ts|cts|mts|py)$/i;
export const MEDIA = /\.(jpe?g|png|gif|bmp|webp|svg|mp4|webm|ogg|mov|avi|wmv|mkv|m4v|pdf|xlsx?)$/i;

/** A path of a `file://` reference without its `:functionName` suffix, and the suffix. */
export function splitFunction(reference: string): { path: string; functionName?: string } {
  const path = normalPath(reference);
  const colon = path.lastIndexOf(":");
  if (colon > 1) return { path: path.slice(0, colon), functionName: path.slice(colon + 1) };
  return { path };
}

export function extensionOf(path: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(path);
  return match ? match[1].toLowerCase() : "";
}

export function isGlob(path: string): boolean {
  return /[*?[\]{}]/.test(path);
}

export function parsedFile(ctx: Context, path: string, where: Where): unknown {
  const text = ctx.files.read(path);
  if (text === undefined) {
    refuse(
      ctx,
      where,
      `${path} was not found`,
      `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
    );
    return undefined;
  }
  try {
    return extensionOf(path) === "json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    refuse(
      ctx,
      { file: path },
      `${path} is not valid ${extensionOf(path) === "json" ? "JSON" : "YAML"}: ${error instanceof Error ? error.message : String(error)}`,
      `Fix the syntax of ${path}.`,
    );
    return undefined;
  }
}
