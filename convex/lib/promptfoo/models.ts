// promptfoo providers and the grader mapped to ModelJury catalog models.
import { asList, isObject, type Json, oneLine } from "./context";
import { type NotImported } from "./types";

/** Candidate catalog ids for a promptfoo provider id, most exact first; null when the provider is not a model id. */
function candidateIds(provider: string): string[] | null {
  const [prefix, ...rest] = provider.split(":");
  const name = rest.join(":");
  if (!name) return null;
  const variants = (vendor: string, model: string) => {
    const undated = model.replace(/-(\d{8}|latest)$/, "");
    const dotted = undated.replace(/(\d)-(\d)(?=\D|$)/g, "$1.$2");
    return [...new Set([`${vendor}/${model}`, `${vendor}/${undated}`, `${vendor}/${dotted}`])];
  };
  switch (prefix) {
    case "openrouter":
      return [name];
    case "openai": {
      const model = name.replace(/^(chat|completion|responses):/, "");
      return variants("openai", model);
    }
    case "anthropic":
      return variants("anthropic", name.replace(/^(messages|completion):/, ""));
    case "google":
    case "vertex":
    case "gemini":
      return variants("google", name.replace(/^(chat|generateContent):/, ""));
    case "mistral":
      return variants("mistralai", name.replace(/^chat:/, ""));
    default:
      return null;
  }
}

/** The catalog id of a promptfoo provider id, or null. A unique catalog id starting with a candidate also matches ("gemini-2.0-flash" → "gemini-2.0-flash-001"). */
export function catalogIdOf(provider: string, catalogIds: readonly string[]): string | null {
  const candidates = candidateIds(provider.trim());
  if (candidates === null) return null;
  for (const candidate of candidates) if (catalogIds.includes(candidate)) return candidate;
  for (const candidate of candidates) {
    const starting = catalogIds.filter((id) => id.startsWith(`${candidate}-`) || id.startsWith(`${candidate}:`));
    if (starting.length === 1) return starting[0];
  }
  return null;
}

interface ProviderEntry {
  id: string;
  label?: string;
  extras: string[];
}

export function providerEntries(raw: unknown, notImported: NotImported[]): ProviderEntry[] {
  return asList(raw).flatMap((entry): ProviderEntry[] => {
    if (typeof entry === "string") return [{ id: entry, extras: [] }];
    if (isObject(entry)) {
      if (typeof entry.id === "string") {
        const extras = Object.keys(entry).filter((key) => key !== "id" && key !== "label");
        return [{ id: entry.id, ...(typeof entry.label === "string" ? { label: entry.label } : {}), extras }];
      }
      // The record form: { "openai:gpt-4o": { config: … } }.
      const keys = Object.keys(entry);
      if (keys.length === 1 && isObject(entry[keys[0]])) {
        const options = entry[keys[0]] as Json;
        const extras = Object.keys(options).filter((key) => key !== "id" && key !== "label");
        return [{ id: keys[0], ...(typeof options.label === "string" ? { label: options.label } : {}), extras }];
      }
    }
    notImported.push({
      item: `provider ${oneLine(JSON.stringify(entry) ?? String(entry))}`,
      reason: "not a provider id",
    });
    return [];
  });
}

export function mapModels(
  entries: ProviderEntry[],
  catalogIds: readonly string[] | null,
  role: string,
  imported: string[],
  notImported: NotImported[],
): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    // Without a catalog (a preview with no server), the most exact candidate id.
    const id = catalogIds === null ? (candidateIds(entry.id.trim())?.[0] ?? null) : catalogIdOf(entry.id, catalogIds);
    if (id === null) {
      notImported.push({
        item: `${role} ${entry.id}`,
        reason:
          catalogIds === null ? "not a provider ModelJury runs" : "no model with this id in the ModelJury catalog",
      });
      continue;
    }
    if (entry.extras.length > 0) {
      notImported.push({
        item: `${role} ${entry.id} ${entry.extras.join(", ")}`,
        reason: "ModelJury calls every model with the same settings",
      });
    }
    if (ids.includes(id)) continue;
    ids.push(id);
    imported.push(`${role[0].toUpperCase()}${role.slice(1)} ${entry.id} → ${id}`);
  }
  return ids;
}

export function graderEntries(raw: unknown): unknown {
  // The object form { text: …, embedding: … }: the text grader judges; embeddings are for `similar`.
  if (isObject(raw) && raw.id === undefined && ("text" in raw || "embedding" in raw)) return raw.text;
  return raw;
}
