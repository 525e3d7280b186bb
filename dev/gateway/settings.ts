// The gateway's settings (faults, latency, judge profiles) and the validated merge that POST
// /__settings applies (server.ts).
import { HttpError, isRecord } from "./input";
import { FAIR_JUDGE, PLANTED_JUDGES, type JudgeProfile } from "./catalog";

export interface GatewayFaults {
  /** Fraction of chat calls answered 429 with `Retry-After: 1`. */
  rate429: number;
  /** Fraction answered 500. */
  rate500: number;
  /** Fraction held open without a reply until the client gives up. */
  rateTimeout: number;
  /** Fraction answered 200 with content that does not parse as the requested JSON. */
  rateMalformed: number;
}

export interface GatewaySettings {
  apiKey: string;
  /** Multiplies every model's latency; 0 replies at once. */
  latencyScale: number;
  /** When set, every reply takes exactly this long instead (benchmarks need a fixed L). */
  fixedLatencyMs: number | null;
  faults: GatewayFaults;
  /** Generation replies hold this many answers fewer than asked (never below 0). */
  answerShortfall: number;
  /** Seeds reply content and the fault draws. */
  seed: number;
  /**
   * Quality SD (0..1 scale) between repeated runs of one cell: generation requests with a `seed`
   * (repeats, convex/lib/repeats.ts) are written at N(quality, repeatVariance²) (repeatVariance.ts).
   */
  repeatVariance: number;
  /** Whether the catalog's planted judge imperfections apply (catalog.ts PLANTED_JUDGES). */
  plantedJudges: boolean;
  /** Per judge model id: imperfections that replace the planted ones, field by field. */
  judgeProfiles: Record<string, Partial<JudgeProfile>>;
  /**
   * Chat calls answered at once; a call beyond it is answered 429 with `Retry-After`
   * (retryAfterSeconds), as real gateways limit a key's concurrency. null: no limit.
   */
  maxConcurrent: number | null;
  /** The Retry-After sent with a 429 for maxConcurrent, in seconds. */
  retryAfterSeconds: number;
  /**
   * Whether a streamed generation stops when its client closes the connection (OpenRouter: "for
   * supported providers"). false: the provider runs it to its end and bills it in full, as the
   * others do; its result is kept under its generation id all the same (GET /generation/content).
   */
  stopsOnDisconnect: boolean;
}

function fraction(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new HttpError(400, `${name} must be a number from 0 to 1`);
  }
  return value;
}

function nonNegative(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new HttpError(400, `${name} must be a non-negative number`);
  }
  return value;
}

const JUDGE_PROFILE_KEYS: readonly (keyof JudgeProfile)[] = ["noise", "positionBias", "selfPreference", "lengthBias"];

function judgeProfilePatch(value: unknown, name: string): Partial<JudgeProfile> {
  if (!isRecord(value)) throw new HttpError(400, `${name} must be an object`);
  const profile: Partial<JudgeProfile> = {};
  for (const [key, amount] of Object.entries(value)) {
    if (!JUDGE_PROFILE_KEYS.includes(key as keyof JudgeProfile))
      throw new HttpError(400, `unknown judge setting ${name}.${key}`);
    if (typeof amount !== "number" || !Number.isFinite(amount))
      throw new HttpError(400, `${name}.${key} must be a number`);
    if (key === "noise" && amount < 0) throw new HttpError(400, `${name}.noise must be a non-negative number`);
    profile[key as keyof JudgeProfile] = amount;
  }
  return profile;
}

/** How `modelId` judges under these settings: fair, planted (catalog.ts), or as configured. */
export function judgeProfileFor(
  modelId: string,
  settings: Pick<GatewaySettings, "plantedJudges" | "judgeProfiles">,
): JudgeProfile {
  return {
    ...FAIR_JUDGE,
    ...(settings.plantedJudges ? PLANTED_JUDGES[modelId] : undefined),
    ...settings.judgeProfiles[modelId],
  };
}

/** Validates a partial settings object and merges it into `settings` (all or nothing). */
export function mergeSettings(settings: GatewaySettings, patch: unknown): GatewaySettings {
  if (!isRecord(patch)) throw new HttpError(400, "settings must be a JSON object");
  const next: GatewaySettings = {
    ...settings,
    faults: { ...settings.faults },
    judgeProfiles: { ...settings.judgeProfiles },
  };
  for (const [key, value] of Object.entries(patch)) {
    switch (key) {
      case "apiKey":
        if (typeof value !== "string" || value === "") throw new HttpError(400, "apiKey must be a non-empty string");
        next.apiKey = value;
        break;
      case "latencyScale":
        next.latencyScale = nonNegative(value, key);
        break;
      case "fixedLatencyMs":
        next.fixedLatencyMs = value === null ? null : nonNegative(value, key);
        break;
      case "answerShortfall":
        next.answerShortfall = Math.floor(nonNegative(value, key));
        break;
      case "maxConcurrent":
        next.maxConcurrent = value === null ? null : Math.max(1, Math.floor(nonNegative(value, key)));
        break;
      case "retryAfterSeconds":
        next.retryAfterSeconds = nonNegative(value, key);
        break;
      case "stopsOnDisconnect":
        if (typeof value !== "boolean") throw new HttpError(400, "stopsOnDisconnect must be true or false");
        next.stopsOnDisconnect = value;
        break;
      case "seed":
        next.seed = Math.floor(nonNegative(value, key));
        break;
      case "repeatVariance":
        next.repeatVariance = nonNegative(value, key);
        break;
      case "plantedJudges":
        if (typeof value !== "boolean") throw new HttpError(400, "plantedJudges must be true or false");
        next.plantedJudges = value;
        break;
      case "judgeProfiles":
        // Merges per model; null for a model removes its override.
        if (!isRecord(value)) throw new HttpError(400, "judgeProfiles must be an object");
        for (const [modelId, profile] of Object.entries(value)) {
          if (profile === null) delete next.judgeProfiles[modelId];
          else
            next.judgeProfiles[modelId] = {
              ...next.judgeProfiles[modelId],
              ...judgeProfilePatch(profile, `judgeProfiles.${modelId}`),
            };
        }
        break;
      case "faults":
        if (!isRecord(value)) throw new HttpError(400, "faults must be an object");
        for (const [faultKey, rate] of Object.entries(value)) {
          if (!(faultKey in next.faults)) throw new HttpError(400, `unknown fault ${faultKey}`);
          next.faults[faultKey as keyof GatewayFaults] = fraction(rate, `faults.${faultKey}`);
        }
        break;
      default:
        throw new HttpError(400, `unknown setting ${key}`);
    }
  }
  const { rate429, rate500, rateTimeout, rateMalformed } = next.faults;
  if (rate429 + rate500 + rateTimeout + rateMalformed > 1)
    throw new HttpError(400, "fault rates add up to more than 1");
  Object.assign(settings, next);
  settings.faults = next.faults;
  settings.judgeProfiles = next.judgeProfiles;
  return settings;
}
