// The jury statistics' kept rows (juryStateChunks): every incremental recomputation rereads all
// of them, so their encoding is what each run reads. The encoding names each answer and call
// once and a ranking call's scores in one group, and gives back exactly the rows it was given;
// chunks kept in the first encoding still read.
import { describe, expect, test } from "vitest";
import { decodeJuryState, encodeJuryState, type JuryState } from "./jury/state";

/** Ids shaped like a deployment's (32 characters). */
const id = (n: number, table: string) => String(n).padStart(32 - table.length, "0") + table;

/** The 650-call test's rows: 10 models × 5 personas × 10 topics × 4 answers, 3 judges ranking each pair's 40. */
function benchState(): JuryState {
  let n = 10_000;
  let t = 1_795_700_436_246.0156;
  const models = Array.from({ length: 13 }, (_, index) => `vendor${index}/model-${index}`);
  const responses: JuryState["responses"] = [];
  for (let index = 0; index < 2000; index++)
    responses.push({
      id: id(n++, "responses"),
      t: (t += 1.0137),
      modelId: models[index % 10]!,
      personaId: `p${index % 5}`,
      topicId: `t${(index >> 2) % 10}`,
      length: 800 + (index % 300),
      costUsd: 0.000123456789 * (1 + (index % 7)),
    });
  const evaluations: JuryState["evaluations"] = [];
  const calls: JuryState["calls"] = [];
  for (let call = 0; call < 150; call++) {
    const callId = id(n++, "calls");
    const judge = models[10 + (call % 3)]!;
    const shown = responses.slice((call % 50) * 40, (call % 50) * 40 + 40).map((row) => row.id);
    calls.push({
      id: callId,
      key: `t:rank:${judge}:p${call % 5}:t${call % 10}`,
      judgeModelId: judge,
      personaId: `p${call % 5}`,
      topicId: `t${call % 10}`,
      responseIds: shown,
    });
    shown.forEach((responseId, rank) =>
      evaluations.push({
        id: id(n++, "evaluations"),
        t: (t += 0.001),
        responseId,
        judgeModelId: judge,
        scores: { overall: 10 - rank * 0.225 },
        rank: rank + 1,
        costUsd: 0.00234567 / 40,
        callId,
      }),
    );
  }
  // A rating judge's scores (several criteria, no rank) and a score from before calls were named.
  evaluations.push(
    {
      id: id(n++, "evaluations"),
      t: (t += 0.001),
      responseId: responses[0]!.id,
      judgeModelId: models[10]!,
      scores: { accuracy: 7, clarity: 8.5 },
      costUsd: 0.0001,
      callId: id(n++, "calls"),
    },
    {
      id: id(n++, "evaluations"),
      t: (t += 0.001),
      responseId: responses[1]!.id,
      judgeModelId: models[11]!,
      scores: { overall: 6 },
      rank: 2,
      costUsd: 0.0002,
    },
  );
  return { responses, evaluations, calls };
}

/** The first encoding (each row its own tuple, every id written out), as older chunks hold it. */
function firstEncoding(state: JuryState): string {
  const models: string[] = [];
  const model = (value: string) => (models.includes(value) ? models.indexOf(value) : models.push(value) - 1);
  const scores = (value: Record<string, number>) =>
    Object.keys(value).length === 1 && value.overall !== undefined ? value.overall : value;
  const r = state.responses.map((row) => [
    row.id,
    row.t,
    model(row.modelId),
    row.personaId,
    row.topicId,
    row.length,
    row.costUsd,
  ]);
  const e = state.evaluations.map((row) => [
    row.id,
    row.t,
    row.responseId,
    model(row.judgeModelId),
    scores(row.scores),
    row.rank ?? null,
    row.costUsd,
    row.callId ?? null,
  ]);
  const c = state.calls.map((row) => [
    row.id,
    row.key,
    model(row.judgeModelId),
    row.personaId,
    row.topicId,
    row.responseIds,
  ]);
  return JSON.stringify({ m: models, r, e, c });
}

describe("the jury statistics' kept rows", () => {
  test("give back exactly the rows they were given, in their order", () => {
    const state = benchState();
    const decoded = decodeJuryState(encodeJuryState(state));
    expect(decoded).toEqual(state);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(state));
  });

  test("take about half the characters of the first encoding for a ranking test: what each incremental run rereads", () => {
    const state = benchState();
    expect(encodeJuryState(state).length).toBeLessThan(0.55 * firstEncoding(state).length);
  });

  test("chunks kept in the first encoding still read", () => {
    const state = benchState();
    expect(decodeJuryState(firstEncoding(state))).toEqual(state);
  });
});
