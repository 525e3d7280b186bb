// The compact rows a test's jury statistics are computed from, kept between recomputations in
// juryStateChunks (core/jury/keep.ts), and the statistics' input built from them (pure).
import { isReverseRankingKey, shownOrder } from "../../lib/prompts";
import { RANKING_SCORE_KEY } from "../../lib/scoring";
import type { JuryRanking, JuryRating, JuryResponse } from "../../lib/stats/types";

/** Characters of kept rows per juryStateChunks document. */
export const JURY_STATE_CHUNK_CHARS = 200_000;

/** The compact rows the statistics are computed from (kept between runs in juryStateChunks). */
export interface JuryState {
  responses: (JuryResponse & { t: number; costUsd: number })[];
  evaluations: (JuryEvaluationRow & { id: string; t: number })[];
  calls: JuryJudgeCallRow[];
}

export type JuryEvaluationRow = Parameters<typeof juryInput>[3][number];
export type JuryJudgeCallRow = Parameters<typeof juryInput>[4][number] & { id: string };

/** Chunks a test keeps at most (a 6,000-judgement test needs a handful). */
export const MAX_STATE_CHUNKS = 64;

export const EMPTY_JURY_STATE: JuryState = { responses: [], evaluations: [], calls: [] };

/**
 * The rows as one compact string (version 2): arrays of tuples rather than objects; model ids
 * once (`m`) and answer and call ids once (`s`), each referred to by index wherever a row names
 * it (an answer's own row, the judge scores of it, the ranking calls that showed it); a judge
 * call's consecutive scores in one group (`g`: the call, judge and cost once); and a ranking's
 * single "overall" score as a bare number. An incremental run rereads every kept chunk, so its
 * size is what each run reads: about half the first encoding's (`e`, still read).
 */
export function encodeJuryState(state: JuryState): string {
  const table = () => {
    const values: string[] = [];
    const indexOf = new Map<string, number>();
    const at = (value: string) => {
      let index = indexOf.get(value);
      if (index === undefined) {
        index = values.length;
        values.push(value);
        indexOf.set(value, index);
      }
      return index;
    };
    return { values, at };
  };
  const models = table();
  const ids = table();
  const scoresOf = (scores: Record<string, number>) => {
    const keys = Object.keys(scores);
    return keys.length === 1 && keys[0] === RANKING_SCORE_KEY ? scores[RANKING_SCORE_KEY]! : scores;
  };
  const r = state.responses.map((row) => [
    ids.at(row.id),
    row.t,
    models.at(row.modelId),
    row.personaId,
    row.topicId,
    row.length,
    row.costUsd,
    // A repeated cell's answer carries its repeat last (older rows have none).
    ...(row.repeat === undefined ? [] : [row.repeat]),
  ]);
  // Consecutive scores of one call by one judge at one cost: [call, judge, cost, rows].
  const g: [number | null, number, number, unknown[][]][] = [];
  let group: (typeof g)[number] | undefined;
  for (const row of state.evaluations) {
    const call = row.callId === undefined ? null : ids.at(row.callId);
    const judge = models.at(row.judgeModelId);
    if (!group || group[0] !== call || group[1] !== judge || group[2] !== row.costUsd) {
      group = [call, judge, row.costUsd, []];
      g.push(group);
    }
    group[3].push([row.id, row.t, ids.at(row.responseId), scoresOf(row.scores), row.rank ?? null]);
  }
  const c = state.calls.map((row) => [
    ids.at(row.id),
    row.key,
    models.at(row.judgeModelId),
    row.personaId,
    row.topicId,
    row.responseIds.map((id) => ids.at(id)),
  ]);
  return JSON.stringify({ v: 2, m: models.values, s: ids.values, r, g, c });
}

type Scores = number | Record<string, number>;
type EncodedState =
  | {
      v?: undefined;
      m: string[];
      r: [string, number, number, string, string, number, number][];
      e: [string, number, string, number, Scores, number | null, number, string | null][];
      c: [string, string, number, string, string, string[]][];
    }
  | {
      v: 2;
      m: string[];
      s: string[];
      r: [number, number, number, string, string, number, number, number?][];
      g: [number | null, number, number, [string, number, number, Scores, number | null][]][];
      c: [number, string, number, string, string, number[]][];
    };

/** The rows of encodeJuryState's string (either version). */
export function decodeJuryState(data: string): JuryState {
  const raw = JSON.parse(data) as EncodedState;
  const model = (index: number) => raw.m[index]!;
  const scoresOf = (scores: Scores) => (typeof scores === "number" ? { [RANKING_SCORE_KEY]: scores } : scores);
  const evaluation = (
    id: string,
    t: number,
    responseId: string,
    judgeModelId: number,
    scores: Scores,
    rank: number | null,
    costUsd: number,
    callId: string | null,
  ) => ({
    id,
    t,
    responseId,
    judgeModelId: model(judgeModelId),
    scores: scoresOf(scores),
    ...(rank === null ? {} : { rank }),
    costUsd,
    ...(callId === null ? {} : { callId }),
  });
  if (raw.v === 2) {
    const id = (index: number) => raw.s[index]!;
    return {
      responses: raw.r.map(([index, t, modelId, personaId, topicId, length, costUsd, repeat]) => ({
        id: id(index),
        t,
        modelId: model(modelId),
        personaId,
        topicId,
        length,
        costUsd,
        ...(repeat === undefined ? {} : { repeat }),
      })),
      evaluations: raw.g.flatMap(([call, judge, costUsd, rows]) =>
        rows.map(([rowId, t, responseId, scores, rank]) =>
          evaluation(rowId, t, id(responseId), judge, scores, rank, costUsd, call === null ? null : id(call)),
        ),
      ),
      calls: raw.c.map(([index, key, judgeModelId, personaId, topicId, responseIds]) => ({
        id: id(index),
        key,
        judgeModelId: model(judgeModelId),
        personaId,
        topicId,
        responseIds: responseIds.map(id),
      })),
    };
  }
  return {
    responses: raw.r.map(([id, t, modelId, personaId, topicId, length, costUsd]) => ({
      id,
      t,
      modelId: model(modelId),
      personaId,
      topicId,
      length,
      costUsd,
    })),
    evaluations: raw.e.map((row) => evaluation(...row)),
    calls: raw.c.map(([id, key, judgeModelId, personaId, topicId, responseIds]) => ({
      id,
      key,
      judgeModelId: model(judgeModelId),
      personaId,
      topicId,
      responseIds,
    })),
  };
}

/** Both sets of rows, each row once (the later copy of a row read twice wins). */
export function mergeJuryStates(kept: JuryState, added: JuryState): JuryState {
  const merge = <T extends { id: string }>(left: readonly T[], right: readonly T[]) => {
    const ids = new Set(right.map((row) => row.id));
    return [...left.filter((row) => !ids.has(row.id)), ...right];
  };
  return {
    responses: merge(kept.responses, added.responses),
    evaluations: merge(kept.evaluations, added.evaluations),
    calls: merge(kept.calls, added.calls),
  };
}

/** The rows in one order whatever the reads' order: creation time, then id (calls by id). */
export function sortedJuryState(state: JuryState): JuryState {
  const byTime = (a: { t: number; id: string }, b: { t: number; id: string }) =>
    a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    responses: [...state.responses].sort(byTime),
    evaluations: [...state.evaluations].sort(byTime),
    calls: [...state.calls].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
}

/** The rows cut into chunks of at most JURY_STATE_CHUNK_CHARS characters each (encoded). */
export function chunkJuryState(state: JuryState): string[] {
  const chunks: string[] = [];
  // Rows of each kind in runs, so a chunk never outgrows its limit by more than one run.
  const RUN = 100;
  let current: JuryState = { responses: [], evaluations: [], calls: [] };
  let size = 0;
  const flush = () => {
    if (size > 0) chunks.push(encodeJuryState(current));
    current = { responses: [], evaluations: [], calls: [] };
    size = 0;
  };
  for (const kind of ["responses", "evaluations", "calls"] as const) {
    const rows = state[kind];
    for (let start = 0; start < rows.length; start += RUN) {
      const run = rows.slice(start, start + RUN);
      const length = JSON.stringify(run).length;
      if (size > 0 && size + length > JURY_STATE_CHUNK_CHARS * 0.9) flush();
      (current[kind] as unknown[]).push(...run);
      size += length;
    }
  }
  flush();
  return chunks;
}

/** Builds computeJuryStats' input from the test's rows (pure; exported for tests). */
export function juryInput(
  testId: string,
  info: { scale: "ranking" | "rating"; models: { id: string; name: string }[]; judges: string[] },
  responses: readonly JuryResponse[],
  evaluations: readonly {
    responseId: string;
    judgeModelId: string;
    scores: Record<string, number>;
    rank?: number;
    costUsd: number;
    callId?: string;
  }[],
  judgeCalls: readonly {
    id?: string;
    key: string;
    judgeModelId: string;
    personaId: string;
    topicId: string;
    responseIds: string[];
  }[],
) {
  const known = new Map(responses.map((response) => [response.id, response]));
  const ratings: JuryRating[] = [];
  const rankings: JuryRanking[] = [];
  if (info.scale === "rating") {
    for (const evaluation of evaluations) {
      ratings.push({
        judgeModelId: evaluation.judgeModelId,
        responseId: evaluation.responseId,
        scores: evaluation.scores,
        costUsd: evaluation.costUsd,
      });
    }
  } else {
    // One group per ranking call: its evaluations, by rank, are its order. Evaluations name their
    // call (both orders of one judge × persona × topic are two calls); older ones are grouped by
    // judge × persona × topic, which had one call.
    const unitKey = (judge: string, personaId: string, topicId: string) => JSON.stringify([judge, personaId, topicId]);
    const groups = new Map<
      string,
      { judgeModelId: string; entries: { responseId: string; rank: number }[]; costUsd: number }
    >();
    for (const evaluation of evaluations) {
      const response = known.get(evaluation.responseId);
      if (!response || evaluation.rank === undefined) continue;
      const key = evaluation.callId ?? unitKey(evaluation.judgeModelId, response.personaId, response.topicId);
      const group = groups.get(key) ?? { judgeModelId: evaluation.judgeModelId, entries: [], costUsd: 0 };
      group.entries.push({ responseId: evaluation.responseId, rank: evaluation.rank });
      group.costUsd += evaluation.costUsd;
      groups.set(key, group);
    }
    // Answers per persona × topic (and repeat: each repeat's answers are ranked apart): the scale
    // a ranking that skipped some (own family) is scored on.
    const pairKey = (personaId: string, topicId: string, repeat: number | undefined) =>
      JSON.stringify([personaId, topicId, repeat ?? 0]);
    const pairAnswers = new Map<string, number>();
    for (const response of responses) {
      const key = pairKey(response.personaId, response.topicId, response.repeat);
      pairAnswers.set(key, (pairAnswers.get(key) ?? 0) + 1);
    }
    const callOf = new Map<string, { shown: string[]; order: "forward" | "reverse"; outOf: number }>();
    for (const call of judgeCalls) {
      const entry = {
        // The pipeline shows the call's answers that still exist, in shownOrder of the call's key.
        shown: shownOrder(
          call.responseIds.filter((id) => known.has(id)),
          call.key,
        ),
        order: isReverseRankingKey(call.key) ? ("reverse" as const) : ("forward" as const),
        outOf:
          pairAnswers.get(
            pairKey(
              call.personaId,
              call.topicId,
              known.get(call.responseIds.find((id) => known.has(id)) ?? "")?.repeat,
            ),
          ) ?? 0,
      };
      if (call.id !== undefined) callOf.set(call.id, entry);
      if (entry.order === "forward") callOf.set(unitKey(call.judgeModelId, call.personaId, call.topicId), entry);
    }
    for (const [key, group] of groups) {
      const ranking = group.entries.sort((a, b) => a.rank - b.rank).map((entry) => entry.responseId);
      const call = callOf.get(key);
      rankings.push({
        judgeModelId: group.judgeModelId,
        shown: call?.shown ?? [],
        ranking,
        order: call?.order ?? "forward",
        outOf: Math.max(call?.outOf ?? 0, ranking.length),
        costUsd: group.costUsd,
      });
    }
  }
  return { seed: testId, scale: info.scale, models: info.models, judges: info.judges, responses, rankings, ratings };
}
