// What every step of the import shares: the Context it reports into, config line numbers, refusals.
import type nunjucks from "nunjucks";
import { LineCounter, parseDocument } from "yaml";
import { type ImportProblem, type NotImported, type PromptfooFiles } from "./types";

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export type NodePath = (string | number)[];

/** 1-based line of a node of a YAML or JSON text, by its path; undefined when not found. */
export function locator(text: string | undefined): (path: NodePath) => number | undefined {
  if (text === undefined) return () => undefined;
  const lineCounter = new LineCounter();
  let document: ReturnType<typeof parseDocument> | null = null;
  try {
    document = parseDocument(text, { lineCounter });
  } catch {
    document = null;
  }
  return (path) => {
    if (document === null) return undefined;
    for (let length = path.length; length >= 0; length--) {
      const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
      if (node && Array.isArray(node.range)) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
}

export interface Where {
  file: string;
  line?: number;
}

export interface Context {
  files: PromptfooFiles;
  configFile: string;
  configLine: (path: NodePath) => number | undefined;
  problems: ImportProblem[];
  notImported: NotImported[];
  imported: string[];
  env: nunjucks.Environment;
}

export function inConfig(ctx: Context, path: NodePath): Where {
  const line = ctx.configLine(path);
  return { file: ctx.configFile, ...(line === undefined ? {} : { line }) };
}

export function refuse(ctx: Context, where: Where, reason: string, fix: string): void {
  const duplicate = ctx.problems.some(
    (problem) => problem.file === where.file && problem.line === where.line && problem.reason === reason,
  );
  if (!duplicate) ctx.problems.push({ ...where, reason, fix });
}
