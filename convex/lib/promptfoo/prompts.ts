// promptfoo's prompts read as written: text, files, globs and chat messages.
import { type Context, inConfig, isObject, type NodePath, refuse, type Where } from "./context";
import { extensionOf, isGlob, parsedFile, SCRIPT, splitFunction } from "./files";

export interface PromptSource {
  label: string;
  raw: string;
  where: Where;
  /** Set for prompts from a file (the file's name for titles). */
  file?: string;
}

/** Whether a prompt string names a file, as promptfoo's maybeFilePath decides for one-line strings. */
function namesFile(text: string): boolean {
  if (text.includes("\n")) return false;
  if (text.startsWith("file://")) return true;
  return !/\s/.test(text) && (/\.[A-Za-z0-9]{2,5}(:\w+)?$/.test(text) || text.includes("*"));
}

function promptEntries(raw: unknown): { raw: unknown; label?: string; path: NodePath }[] {
  if (typeof raw === "string") return [{ raw, path: ["prompts"] }];
  if (Array.isArray(raw)) {
    return raw.map((entry, index) => {
      if (isObject(entry) && Array.isArray(entry.messages)) {
        return {
          raw: entry.messages,
          ...(typeof entry.label === "string" ? { label: entry.label } : {}),
          path: ["prompts", index],
        };
      }
      if (isObject(entry) && !("role" in entry)) {
        return {
          raw: entry.raw ?? entry.id,
          ...(typeof entry.label === "string" ? { label: entry.label } : {}),
          path: ["prompts", index],
        };
      }
      return { raw: entry, path: ["prompts", index] };
    });
  }
  // The map form, { "file://prompt.txt": "label" }: promptfoo's normalizeInput reads keys as prompts.
  if (isObject(raw)) {
    return Object.entries(raw).map(([prompt, label]) => ({
      raw: prompt,
      ...(typeof label === "string" ? { label } : {}),
      path: ["prompts", prompt],
    }));
  }
  return [];
}

function promptsOfFile(ctx: Context, path: string, label: string | undefined, where: Where): PromptSource[] {
  const extension = extensionOf(path);
  const text = ctx.files.read(path);
  const base = path.split("/").pop() ?? path;
  if (text === undefined) {
    refuse(
      ctx,
      where,
      `the prompt file ${path} was not found`,
      `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
    );
    return [];
  }
  const one = (raw: string, suffix = ""): PromptSource => ({
    label: `${label ?? base}${suffix}`,
    raw,
    where: { file: path },
    file: path,
  });
  switch (extension) {
    case "txt": {
      const parts = text
        .split(/\r?\n/)
        .reduce<string[][]>(
          (groups, line) => {
            if (line.trim() === "---") groups.push([]);
            else groups[groups.length - 1].push(line);
            return groups;
          },
          [[]],
        )
        .map((lines) => lines.join("\n").trim())
        .filter(Boolean);
      return parts.map((raw, index) => one(raw, parts.length > 1 ? ` #${index + 1}` : ""));
    }
    case "json":
    case "md":
    case "j2":
      return [one(text)];
    case "jsonl":
      return text
        .split("\n")
        .filter((line) => line.trim())
        .map((line, index, all) => one(line, all.length > 1 ? ` #${index + 1}` : ""));
    case "yaml":
    case "yml": {
      const parsed = parsedFile(ctx, path, where);
      return parsed === undefined ? [] : [one(JSON.stringify(parsed))];
    }
    default:
      refuse(
        ctx,
        where,
        `prompts from ${extension ? `.${extension}` : "this kind of"} file (${path}) are not read`,
        "Write the prompt as text (.txt), Markdown, or chat messages (.json, .yaml).",
      );
      return [];
  }
}

/** Chat messages whose `file://` contents are read (text as written); null when one cannot be. */
function messagesWithFiles(ctx: Context, messages: unknown[], where: Where): unknown[] | null {
  const read: unknown[] = [];
  for (const message of messages) {
    if (!isObject(message) || typeof message.content !== "string" || !message.content.startsWith("file://")) {
      read.push(message);
      continue;
    }
    const { path, functionName } = splitFunction(message.content);
    if (SCRIPT.test(path) || functionName !== undefined) {
      refuse(
        ctx,
        where,
        `a chat message's content ${message.content} is a function (JavaScript or Python), which ModelJury does not run`,
        "Write the message as text or in a text file.",
      );
      return null;
    }
    const text = ctx.files.read(path);
    if (text === undefined) {
      refuse(
        ctx,
        where,
        `the message file ${path} was not found`,
        `Put ${path} next to ${ctx.configFile}, or fix the path (relative to the config's folder).`,
      );
      return null;
    }
    read.push({ ...message, content: text });
  }
  return read;
}

export function readPrompts(ctx: Context, raw: unknown): PromptSource[] {
  const entries = promptEntries(raw);
  if (entries.length === 0) {
    refuse(ctx, inConfig(ctx, ["prompts"]), "the config has no prompts", "Add a prompt under prompts:.");
    return [];
  }
  return entries.flatMap(({ raw: source, label, path }, index): PromptSource[] => {
    const where = inConfig(ctx, path);
    if (Array.isArray(source)) {
      // Chat messages written in the config itself (`messages:`), a content may be a file.
      const messages = messagesWithFiles(ctx, source, where);
      return messages === null ? [] : [{ label: label ?? `Prompt ${index + 1}`, raw: JSON.stringify(messages), where }];
    }
    if (typeof source !== "string" || !source.trim()) {
      refuse(
        ctx,
        where,
        `prompt ${index + 1} is neither text nor a file`,
        "Give the prompt as text, a file:// path, or { raw, label }.",
      );
      return [];
    }
    if (source.startsWith("exec:") || !namesFile(source)) {
      return [{ label: label ?? (entries.length > 1 ? `Prompt ${index + 1}` : "Prompt"), raw: source, where }];
    }
    const { path: file, functionName } = splitFunction(source);
    if (SCRIPT.test(file) || functionName !== undefined) {
      refuse(
        ctx,
        where,
        `the prompt ${source} is a function (JavaScript or Python), which ModelJury does not run`,
        "Write the prompt it returns as text or chat messages in a .txt, .json or .yaml file.",
      );
      return [];
    }
    if (isGlob(file)) {
      const matches = ctx.files.glob(file);
      if (matches.length === 0) {
        refuse(
          ctx,
          where,
          `no file matches the prompt glob ${source}`,
          "Fix the pattern (relative to the config's folder) or add the files.",
        );
        return [];
      }
      return matches.flatMap((match) => promptsOfFile(ctx, match, label ? `${label}: ${match}` : undefined, where));
    }
    return promptsOfFile(ctx, file, label, where);
  });
}
