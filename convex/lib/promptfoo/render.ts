// Nunjucks rendering of prompts for a test case's vars, as promptfoo renders them.
import nunjucks from "nunjucks";
import { type Context, isObject, oneLine } from "./context";
import { type PromptSource } from "./prompts";

export function newEnvironment(): nunjucks.Environment {
  // As promptfoo's getNunjucksEngine: no autoescape, undefined renders empty, the `load` filter.
  const env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
  env.addFilter("load", (text: string) => JSON.parse(text) as unknown);
  return env;
}

export type Vars = Record<string, unknown>;

export function renderText(
  ctx: Context,
  template: string,
  vars: Vars,
): { ok: true; text: string } | { ok: false; reason: string } {
  try {
    return { ok: true, text: ctx.env.renderString(template, vars) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? oneLine(error.message) : String(error) };
  }
}

function renderInObject(ctx: Context, value: unknown, vars: Vars): unknown {
  if (typeof value === "string") {
    const rendered = renderText(ctx, value, vars);
    if (!rendered.ok) throw new Error(rendered.reason);
    return rendered.text;
  }
  if (Array.isArray(value)) return value.map((item) => renderInObject(ctx, item, vars));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderInObject(ctx, item, vars)]));
  return value;
}

interface RenderedPrompt {
  system?: string;
  user: string;
}

/** A prompt rendered for one test case's vars, as promptfoo's renderPrompt does; chat messages split. */
export function renderPromptFor(
  ctx: Context,
  prompt: PromptSource,
  vars: Vars,
): { ok: true; value: RenderedPrompt } | { ok: false; reason: string; fix: string } {
  let parsed: unknown;
  let isJson: boolean;
  try {
    parsed = JSON.parse(prompt.raw);
    isJson = true;
  } catch {
    isJson = false;
  }
  if (!isJson) {
    const rendered = renderText(ctx, prompt.raw, vars);
    if (!rendered.ok)
      return {
        ok: false,
        reason: `the prompt is not a valid Nunjucks template: ${rendered.reason}`,
        fix: "Fix the template syntax.",
      };
    return { ok: true, value: { user: rendered.text } };
  }
  let rendered: unknown;
  try {
    rendered = renderInObject(ctx, parsed, vars);
  } catch (error) {
    return {
      ok: false,
      reason: `the prompt is not a valid Nunjucks template: ${String(error instanceof Error ? error.message : error)}`,
      fix: "Fix the template syntax.",
    };
  }
  const isChat =
    Array.isArray(rendered) &&
    rendered.length > 0 &&
    rendered.every((message) => isObject(message) && typeof message.role === "string");
  if (!isChat)
    return { ok: true, value: { user: typeof rendered === "string" ? rendered : JSON.stringify(rendered, null, 2) } };
  const messages = rendered as { role: string; content?: unknown }[];
  if (messages.some((message) => typeof message.content !== "string")) {
    return {
      ok: false,
      reason: "a chat message's content is not text (images or parts)",
      fix: "Give each message's content as text.",
    };
  }
  const system = messages.filter((message) => message.role === "system").map((message) => message.content as string);
  const user = messages.filter((message) => message.role === "user").map((message) => message.content as string);
  const others = messages.filter((message) => message.role !== "system" && message.role !== "user");
  if (user.length !== 1 || others.length > 0) {
    return {
      ok: false,
      reason: `the chat prompt has ${user.length} user and ${others.length} other message(s); a ModelJury topic is one user message (with an optional system message)`,
      fix: "Keep one system and one user message, or put the earlier turns into the user message.",
    };
  }
  return { ok: true, value: { ...(system.length > 0 ? { system: system.join("\n\n") } : {}), user: user[0] } };
}

export const UNRENDERED = /\{\{|\{%|file:\/\//;
