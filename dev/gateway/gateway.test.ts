// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KNOWN_MODEL_IDS } from "../../convex/lib/builtins";
import { blendedPerMillion, catalog } from "./catalog";
import { answerTextScore } from "./judgeReplies";
import { startGateway, type RunningGateway } from "./server";

const KEY = "dev-gateway-key";

interface ChatReply {
  status: number;
  headers: Headers;
  body: {
    choices?: { message: { role: string; content: string }; finish_reason: string }[];
    usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    error?: { message: string; code: number };
  };
}

async function chat(
  gateway: RunningGateway,
  model: string,
  user: string,
  options: { system?: string; key?: string; signal?: AbortSignal; maxTokens?: number } = {},
): Promise<ChatReply> {
  const messages = [
    ...(options.system ? [{ role: "system", content: options.system }] : []),
    { role: "user", content: user },
  ];
  const response = await fetch(`${gateway.url}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.key ?? KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages, temperature: 0.7, max_tokens: options.maxTokens ?? 3000 }),
    signal: options.signal ?? null,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as ChatReply["body"] };
}

function contentOf(reply: ChatReply): string {
  const content = reply.body.choices?.[0]?.message.content;
  if (typeof content !== "string") throw new Error(`no content in ${JSON.stringify(reply.body)}`);
  return content;
}

function parseArray(content: string): string[] {
  const json = content.replace(/^```(?:json)?\s*/, "").replace(/\s*```$/, "");
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw new Error("not a string array");
  return value;
}

// Shaped like the app's prompt: topic content, then the user's request, then the format.
const generationPrompt = (subject: string, count: number) =>
  `Everyday situations: morning routines, commuting and travel.\n\nWrite a short product description for ${subject}.\n\n` +
  `Provide exactly ${count} distinct responses as a JSON array of strings.`;

const SUBJECTS = [
  "a reusable coffee cup for busy commuters",
  "a solar phone charger for hikers",
  "noise-cancelling headphones for open offices",
  "a standing desk for small apartments",
  "a budgeting app for college students",
  "a smart thermostat for old houses",
  "a cookbook of fifteen-minute dinners",
  "an electric bike for hilly cities",
  "a language-learning podcast for beginners",
  "a password manager for families",
  "a waterproof backpack for cyclists",
  "a meal-kit subscription for vegetarians",
] as const;

function rankingPrompt(answers: readonly string[]): string {
  const labelled = answers.map((answer, index) => `[${String.fromCharCode(65 + index)}] ${answer}`).join("\n\n");
  return (
    "Rank the following responses from best to worst based on overall quality, accuracy and helpfulness.\n\n" +
    `${labelled}\n\nReply with JSON only: {"ranking": ["<label>", ...], "explanation": "<why>"}`
  );
}

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ latencyScale: 0, seed: 7 });
});

afterAll(async () => {
  await gateway.close();
});

describe("GET /models", () => {
  it("serves the catalog in OpenRouter shape, without hidden fields", async () => {
    const response = await fetch(`${gateway.url}/models`);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Record<string, unknown>[] };
    expect(data.length).toBeGreaterThanOrEqual(24);
    for (const model of data) {
      expect(model.id).toMatch(/^[a-z0-9-]+\/[a-z0-9.:-]+$/);
      expect(model.name).toMatch(/^[^:]+: .+/);
      expect(typeof model.description).toBe("string");
      expect(typeof model.created).toBe("number");
      const pricing = model.pricing as { prompt: string; completion: string };
      for (const price of [pricing.prompt, pricing.completion]) {
        expect(price).toMatch(/^\d+(\.\d+)?$/);
      }
      const topProvider = model.top_provider as Record<string, unknown>;
      expect(Object.keys(topProvider).sort()).toEqual(["context_length", "is_moderated", "max_completion_tokens"]);
      expect(topProvider.context_length).toBe(model.context_length ?? null);
      expect(topProvider.max_completion_tokens === null || typeof topProvider.max_completion_tokens === "number").toBe(
        true,
      );
      expect(typeof topProvider.is_moderated).toBe("boolean");
      expect(model.per_request_limits).toBeNull();
      expect(model).not.toHaveProperty("quality");
      expect(model).not.toHaveProperty("latencyMs");
    }
    expect(data.filter((model) => model.context_length === undefined).length).toBeGreaterThanOrEqual(1);

    const ids = data.map((model) => model.id);
    // Every model a built-in template or bundle suggests, so they select real models offline.
    for (const id of KNOWN_MODEL_IDS) expect(ids).toContain(id);
  });

  it("covers every tier, plus models above the spec filter", async () => {
    const { data } = (await (await fetch(`${gateway.url}/models`)).json()) as {
      data: { pricing: { prompt: string; completion: string } }[];
    };
    const counts: Record<string, number> = {};
    for (const { pricing } of data) {
      const prompt = Number(pricing.prompt);
      const completion = Number(pricing.completion);
      if (prompt >= 0.0001 || completion >= 0.0001) {
        counts.ABOVE_FILTER = (counts.ABOVE_FILTER ?? 0) + 1;
        continue;
      }
      const blended = (0.7 * prompt + 0.3 * completion) * 1_000_000;
      const tier =
        blended === 0
          ? "FREE"
          : blended <= 1
            ? "BUDGET"
            : blended <= 5
              ? "STANDARD"
              : blended <= 15
                ? "PREMIUM"
                : blended <= 50
                  ? "ENTERPRISE"
                  : "FLAGSHIP";
      counts[tier] = (counts[tier] ?? 0) + 1;
    }
    expect(counts.FREE).toBeGreaterThanOrEqual(2);
    expect(counts.BUDGET).toBeGreaterThanOrEqual(3);
    expect(counts.STANDARD).toBeGreaterThanOrEqual(3);
    expect(counts.PREMIUM).toBeGreaterThanOrEqual(2);
    expect(counts.ENTERPRISE).toBeGreaterThanOrEqual(2);
    expect(counts.ABOVE_FILTER).toBeGreaterThanOrEqual(2);
    // The served strings match the catalog's per-million prices.
    for (const model of catalog) expect(blendedPerMillion(model)).toBeGreaterThanOrEqual(0);
  });
});

describe("POST /chat/completions", () => {
  it("rejects a wrong or missing key with 401", async () => {
    const wrong = await chat(gateway, "openai/gpt-4o", "Hello", { key: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toEqual({ message: "No auth credentials found", code: 401 });

    const missing = await fetch(`${gateway.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "openai/gpt-4o", messages: [{ role: "user", content: "Hi" }] }),
    });
    expect(missing.status).toBe(401);
  });

  it("answers 404 for an unknown model", async () => {
    const reply = await chat(gateway, "openai/gpt-9", "Hello");
    expect(reply.status).toBe(404);
    expect(reply.body.error?.message).toContain("openai/gpt-9");
  });

  it("returns a chat.completion with usage", async () => {
    const reply = await chat(gateway, "openai/gpt-4o-mini", "What makes a good morning routine for busy parents?");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      object: "chat.completion",
      model: "openai/gpt-4o-mini",
      choices: [{ index: 0, message: { role: "assistant" }, finish_reason: "stop" }],
    });
    const content = contentOf(reply);
    expect(content).toMatch(/morning routine|busy parents/i);
    const usage = reply.body.usage;
    expect(usage?.prompt_tokens).toBe(Math.ceil("What makes a good morning routine for busy parents?".length / 4));
    expect(usage?.completion_tokens).toBe(Math.ceil(content.length / 4));
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
  });

  it("cuts a reply at max_tokens with finish_reason length", async () => {
    const reply = await chat(gateway, "anthropic/claude-opus-4", generationPrompt(SUBJECTS[0], 5), { maxTokens: 20 });
    expect(reply.body.choices?.[0]?.finish_reason).toBe("length");
    expect(contentOf(reply).length).toBeLessThanOrEqual(80);
  });
});

describe("generation", () => {
  it("returns exactly N distinct answers built from the prompt, deterministically", async () => {
    for (const model of ["mistralai/mistral-7b-instruct:free", "openai/gpt-4o-mini", "anthropic/claude-opus-4"]) {
      for (const count of [1, 2, 5, 10]) {
        const prompt = generationPrompt(SUBJECTS[count % SUBJECTS.length] ?? "", count);
        const system = "You are a cheerful barista who loves puns.";
        const first = contentOf(await chat(gateway, model, prompt, { system }));
        const answers = parseArray(first);
        expect(answers).toHaveLength(count);
        expect(new Set(answers).size).toBe(count);
        for (const answer of answers) {
          expect(answer.length).toBeGreaterThan(20);
          expect(answer).not.toMatch(/lorem|ipsum|json array/i);
        }
        expect(answers.join(" ")).toMatch(
          /coffee|charger|headphones|desk|budgeting|thermostat|cookbook|bike|podcast|password|backpack|meal/i,
        );
        const again = contentOf(await chat(gateway, model, prompt, { system }));
        expect(again).toBe(first);
      }
    }
  });

  it('also reads counts written as words or without "exactly"', async () => {
    const words = `Suggest taglines for a bakery.\n\nGive exactly four answers, formatted as a JSON array of strings.`;
    expect(parseArray(contentOf(await chat(gateway, "openai/gpt-4o", words)))).toHaveLength(4);
    const plain = `Suggest taglines for a bakery.\n\nReturn 6 distinct responses as a JSON array.`;
    expect(parseArray(contentOf(await chat(gateway, "openai/gpt-4o", plain)))).toHaveLength(6);
  });

  it("gives stronger models longer, more detailed answers", async () => {
    const prompt = generationPrompt(SUBJECTS[1], 8);
    const mean = async (model: string) => {
      const answers = parseArray(contentOf(await chat(gateway, model, prompt)));
      return answers.reduce((sum, answer) => sum + answerTextScore(answer), 0) / answers.length;
    };
    const weak = await mean("meta-llama/llama-3.2-3b-instruct:free");
    const middle = await mean("openai/gpt-4o-mini");
    const strong = await mean("anthropic/claude-opus-4");
    expect(weak).toBeLessThan(middle);
    expect(middle).toBeLessThan(strong);
  });

  it("wraps about one reply in ten in ```json fences", async () => {
    let fenced = 0;
    const calls = 120;
    for (let i = 0; i < calls; i++) {
      const content = contentOf(
        await chat(gateway, "openai/gpt-4o", `${generationPrompt(SUBJECTS[i % 12] ?? "", 2)} (${i})`),
      );
      if (content.startsWith("```json")) fenced++;
      expect(parseArray(content)).toHaveLength(2);
    }
    expect(fenced / calls).toBeGreaterThan(0.03);
    expect(fenced / calls).toBeLessThan(0.2);
  });

  it("answers N − k when answerShortfall is k", async () => {
    gateway.settings.answerShortfall = 2;
    try {
      expect(
        parseArray(contentOf(await chat(gateway, "openai/gpt-4o", generationPrompt(SUBJECTS[2], 5)))),
      ).toHaveLength(3);
      expect(
        parseArray(contentOf(await chat(gateway, "openai/gpt-4o", generationPrompt(SUBJECTS[2], 1)))),
      ).toHaveLength(0);
    } finally {
      gateway.settings.answerShortfall = 0;
    }
  });
});

describe("ranking", () => {
  it("ranks every label exactly once", async () => {
    const answers = parseArray(contentOf(await chat(gateway, "openai/gpt-4.1", generationPrompt(SUBJECTS[3], 10))));
    const more = parseArray(
      contentOf(await chat(gateway, "qwen/qwen-2.5-72b-instruct", generationPrompt(SUBJECTS[3], 4))),
    );
    const all = [...answers, ...more];
    const reply = JSON.parse(
      contentOf(
        await chat(gateway, "anthropic/claude-sonnet-4", rankingPrompt(all), { system: "You are an impartial judge." }),
      ),
    ) as {
      ranking: string[];
      explanation: string;
    };
    const labels = all.map((_, index) => String.fromCharCode(65 + index));
    expect([...reply.ranking].sort()).toEqual(labels);
    expect(reply.explanation.length).toBeGreaterThan(10);
  });

  it("reads labels on their own line and answers that quote the generation prompt", async () => {
    const prompt =
      `Original task: ${generationPrompt(SUBJECTS[4], 3)}\n\nRank these answers from best to worst.\n\n` +
      "[A]\nShort answer.\n\n[B]\nAnother, slightly longer answer about budgeting.\n\n[C]\nThird one.\n\n" +
      'Return JSON: {"ranking": [...], "explanation": "..."}';
    const reply = JSON.parse(contentOf(await chat(gateway, "openai/gpt-4o", prompt))) as { ranking: string[] };
    expect([...reply.ranking].sort()).toEqual(["A", "B", "C"]);
  });

  it("lets stronger generators win more often, with noise", async () => {
    const judges = [
      "openai/gpt-4o-mini",
      "google/gemini-2.0-flash-001",
      "anthropic/claude-sonnet-4",
      "deepseek/deepseek-chat",
    ];
    const tally = async (strongModel: string, weakModel: string) => {
      let strongWins = 0;
      let total = 0;
      for (const [index, subject] of SUBJECTS.entries()) {
        const prompt = generationPrompt(subject, 2);
        const strong = parseArray(contentOf(await chat(gateway, strongModel, prompt)));
        const weak = parseArray(contentOf(await chat(gateway, weakModel, prompt)));
        for (const judge of judges) {
          // Alternate which side gets label A, as the app shuffles.
          const pair = index % 2 === 0 ? [strong[0] ?? "", weak[0] ?? ""] : [weak[0] ?? "", strong[0] ?? ""];
          const strongLabel = index % 2 === 0 ? "A" : "B";
          const reply = JSON.parse(contentOf(await chat(gateway, judge, rankingPrompt(pair)))) as { ranking: string[] };
          if (reply.ranking[0] === strongLabel) strongWins++;
          total++;
        }
      }
      return strongWins / total;
    };
    const farApart = await tally("anthropic/claude-opus-4", "meta-llama/llama-3.2-3b-instruct:free");
    const closer = await tally("anthropic/claude-sonnet-4", "openai/gpt-4o-mini");
    expect(farApart).toBeGreaterThan(0.85);
    expect(closer).toBeGreaterThan(0.55);
    expect(closer).toBeLessThan(1);
  });
});

describe("rating", () => {
  const answer =
    "Focusing on coffee cup: for example, a double wall keeps drinks hot because air insulates, and in practice it fits car holders.";

  it("scores exactly the criteria listed on a Criteria line", async () => {
    const prompt =
      "Evaluate the response below on a scale of 1-10 for each criterion.\nCriteria: accuracy, clarity, style\n\n" +
      `Response:\n${answer}\n\nReturn JSON with "scores" and "explanation".`;
    const reply = JSON.parse(contentOf(await chat(gateway, "openai/gpt-4o", prompt))) as {
      scores: Record<string, number>;
      explanation: string;
    };
    expect(Object.keys(reply.scores)).toEqual(["accuracy", "clarity", "style"]);
    for (const score of Object.values(reply.scores)) {
      expect(Number.isInteger(score)).toBe(true);
      expect(score).toBeGreaterThanOrEqual(1);
      expect(score).toBeLessThanOrEqual(10);
    }
    expect(reply.explanation.length).toBeGreaterThan(10);
  });

  it("takes criteria from a JSON template and ignores criterion words inside the answer", async () => {
    const prompt =
      "Rate this answer from 1 to 10.\n\n<answer>\nIts accuracy and style are great, with creativity and relevance.\n</answer>\n\n" +
      'Reply as JSON: {"scores": {"relevance": <1-10>, "creativity": <1-10>}, "explanation": "..."}';
    const reply = JSON.parse(contentOf(await chat(gateway, "google/gemini-2.5-pro", prompt))) as {
      scores: Record<string, number>;
    };
    expect(Object.keys(reply.scores)).toEqual(["relevance", "creativity"]);
  });

  it("handles one labelled answer with all five criteria, and a single criterion", async () => {
    const all = JSON.parse(
      contentOf(
        await chat(
          gateway,
          "x-ai/grok-3",
          `Score the answer on accuracy, creativity, clarity, relevance and style (1-10 each).\n\n[A] ${answer}\n\nRespond in JSON.`,
        ),
      ),
    ) as { scores: Record<string, number> };
    expect(Object.keys(all.scores).sort()).toEqual(["accuracy", "clarity", "creativity", "relevance", "style"]);

    const one = JSON.parse(
      contentOf(
        await chat(
          gateway,
          "x-ai/grok-3",
          `Give a score between 1 and 10 for accuracy.\n\nAnswer: ${answer}\n\nJSON please.`,
        ),
      ),
    ) as { scores: Record<string, number> };
    expect(Object.keys(one.scores)).toEqual(["accuracy"]);
  });

  it("rates answers from stronger models higher on average", async () => {
    const meanScore = async (model: string) => {
      const answers = parseArray(contentOf(await chat(gateway, model, generationPrompt(SUBJECTS[5], 6))));
      let sum = 0;
      for (const text of answers) {
        const prompt = `Rate the answer on a 1-10 scale.\nCriteria: accuracy, clarity\n\nAnswer:\n${text}\n\nReturn JSON.`;
        const reply = JSON.parse(contentOf(await chat(gateway, "openai/gpt-4.1", prompt))) as {
          scores: Record<string, number>;
        };
        sum += (reply.scores.accuracy ?? 0) + (reply.scores.clarity ?? 0);
      }
      return sum / answers.length;
    };
    expect(await meanScore("anthropic/claude-opus-4")).toBeGreaterThan(
      await meanScore("mistralai/mistral-7b-instruct:free"),
    );
  });
});

describe("faults", () => {
  it("injects each fault at roughly the configured rate", async () => {
    // Fault draws come from one stream seeded here, one per call, so the counts are the same on
    // every run whatever order the calls arrive in: the bounds hold or fail for good, not by chance.
    const faulty = await startGateway({
      latencyScale: 0,
      seed: 3,
      faults: { rate429: 0.1, rate500: 0.1, rateTimeout: 0.1, rateMalformed: 0.1 },
    });
    try {
      const outcomes: Record<string, number> = {};
      const calls = 400;
      const batchSize = 100;
      const one = async (i: number, hangUp: AbortSignal) => {
        let outcome: string;
        try {
          const reply = await chat(faulty, "openai/gpt-4o-mini", generationPrompt(SUBJECTS[i % 12] ?? "", 3), {
            signal: hangUp,
          });
          if (reply.status === 429) {
            expect(reply.headers.get("retry-after")).toBe("1");
            expect(reply.body.error?.code).toBe(429);
            outcome = "429";
          } else if (reply.status === 500) {
            expect(reply.body.error?.message).toBeTruthy();
            outcome = "500";
          } else {
            expect(reply.status).toBe(200);
            try {
              parseArray(contentOf(reply));
              outcome = "ok";
            } catch {
              outcome = "malformed";
            }
          }
        } catch (error) {
          // Only a call the gateway never answers is still open when the batch hangs up.
          expect((error as Error).name).toBe("AbortError");
          outcome = "timeout";
        }
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      };
      for (let start = 0; start < calls; start += batchSize) {
        const hangUp = new AbortController();
        const timeoutsBefore = faulty.stats.byStatus.timeout ?? 0;
        let settled = 0;
        const batch = Array.from({ length: batchSize }, (_, offset) =>
          one(start + offset, hangUp.signal).finally(() => settled++),
        );
        // A time-out fault never answers: the client hangs up once every other call of the batch
        // has its answer and the gateway has counted the rest as time-outs (no clock decides it).
        await vi.waitFor(
          () => expect(settled + (faulty.stats.byStatus.timeout ?? 0) - timeoutsBefore).toBe(batchSize),
          { timeout: 60_000, interval: 10 },
        );
        hangUp.abort();
        await Promise.all(batch);
      }
      for (const fault of ["429", "500", "timeout", "malformed"]) {
        expect((outcomes[fault] ?? 0) / calls).toBeGreaterThan(0.05);
        expect((outcomes[fault] ?? 0) / calls).toBeLessThan(0.15);
      }
      expect((outcomes.ok ?? 0) / calls).toBeGreaterThan(0.5);
      expect(faulty.stats.chatCalls).toBe(calls);
      expect(faulty.stats.byStatus["429"]).toBe(outcomes["429"]);
      expect(faulty.stats.byStatus.timeout).toBe(outcomes.timeout);
    } finally {
      await faulty.close();
    }
  });

  it("makes ranking and rating replies unparseable when malformed", async () => {
    const faulty = await startGateway({ latencyScale: 0, faults: { rateMalformed: 1 } });
    try {
      const ranking = contentOf(
        await chat(faulty, "openai/gpt-4o", rankingPrompt(["One answer here.", "Another answer."])),
      );
      expect(() => JSON.parse(ranking) as unknown).toThrow();
      const rating = contentOf(
        await chat(faulty, "openai/gpt-4o", "Rate 1-10.\nCriteria: accuracy\n\nAnswer: Fine.\n\nJSON."),
      );
      expect(() => JSON.parse(rating) as unknown).toThrow();
    } finally {
      await faulty.close();
    }
  });

  it("closes without waiting for a request held open, which then fails", async () => {
    const faulty = await startGateway({ latencyScale: 0, faults: { rateTimeout: 1 } });
    const pending = chat(faulty, "openai/gpt-4o", "Hello there").then(
      () => "answered",
      () => "failed",
    );
    // The request is held open once the gateway has taken it in.
    await vi.waitFor(() => expect(faulty.stats.byStatus.timeout).toBe(1), { interval: 10, timeout: 10_000 });
    // The held request is never answered: a close that waited for it would not end (the test's
    // time-out says so), whatever the machine's load.
    await faulty.close();
    expect(await pending).toBe("failed");
  });
});

describe("latency and settings", () => {
  it("replies at once with latencyScale 0 and waits the model latency otherwise", async () => {
    // The gateway's clock is faked, so a wait is seen by whether the clock must move for the
    // reply, not by how long it took on a busy machine.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const replied = (model: string) => {
        const reply = { status: 0 };
        const done = chat(gateway, model, "Say something about trains.").then(({ status }) => {
          reply.status = status;
        });
        return { reply, done };
      };
      // openai/o1-pro waits 9 s ± 20% at latencyScale 1: at 0 it answers with the clock standing still.
      for (let i = 0; i < 5; i++) {
        const { reply, done } = replied("openai/o1-pro");
        await done;
        expect(reply.status).toBe(200);
      }

      // openai/gpt-4o-mini: 900 ms × 0.05 = 45 ms ± 20%, so 36 to 54 ms of the gateway's clock.
      const response = await fetch(gateway.url.replace("/api/v1", "/__settings"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ latencyScale: 0.05 }),
      });
      expect(response.status).toBe(200);
      expect(gateway.settings.latencyScale).toBe(0.05);
      const { reply, done } = replied("openai/gpt-4o-mini");
      // Taken in and waiting on its timer.
      await vi.waitFor(() => expect(gateway.stats.inFlight).toBe(1), { timeout: 30_000, interval: 5 });
      await vi.advanceTimersByTimeAsync(35);
      expect(reply.status).toBe(0);
      await vi.advanceTimersByTimeAsync(20);
      await done;
      expect(reply.status).toBe(200);
    } finally {
      vi.useRealTimers();
      gateway.settings.latencyScale = 0;
    }
  });

  it("validates POST /__settings and reports GET /__stats", async () => {
    const settingsUrl = gateway.url.replace("/api/v1", "/__settings");
    const bad = await fetch(settingsUrl, { method: "POST", body: JSON.stringify({ faults: { rate429: 2 } }) });
    expect(bad.status).toBe(400);
    expect(gateway.settings.faults.rate429).toBe(0);

    const merged = (await (
      await fetch(settingsUrl, { method: "POST", body: JSON.stringify({ faults: { rate500: 0.25 } }) })
    ).json()) as { faults: Record<string, number> };
    expect(merged.faults).toEqual({ rate429: 0, rate500: 0.25, rateTimeout: 0, rateMalformed: 0 });
    gateway.settings.faults.rate500 = 0;

    const stats = (await (await fetch(gateway.url.replace("/api/v1", "/__stats"))).json()) as {
      chatCalls: number;
      byStatus: Record<string, number>;
    };
    expect(stats.chatCalls).toBeGreaterThan(0);
    expect(stats.byStatus["200"]).toBeGreaterThan(0);
    expect(stats.byStatus["401"]).toBeGreaterThan(0);
  });
});

describe("maxConcurrent", () => {
  it("answers calls beyond maxConcurrent at once with 429 and Retry-After, and counts them", async () => {
    const limited = await startGateway({
      latencyScale: 0,
      fixedLatencyMs: 200,
      maxConcurrent: 3,
      retryAfterSeconds: 2,
    });
    try {
      const replies = await Promise.all(
        Array.from({ length: 5 }, () => chat(limited, "openai/gpt-4o-mini", "Say something about trains.")),
      );
      const statuses = replies.map((reply) => reply.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = replies.find((reply) => reply.status === 429)!;
      expect(refused.headers.get("retry-after")).toBe("2");
      expect(limited.stats).toMatchObject({ overLimit: 2, maxInFlight: 3, inFlight: 0 });
      // Once the first three are answered, a new call gets through.
      expect((await chat(limited, "openai/gpt-4o-mini", "And about boats.")).status).toBe(200);
      // The limit is a live setting: lifted, all five are answered.
      limited.settings.maxConcurrent = null;
      const unlimited = await Promise.all(
        Array.from({ length: 5 }, () => chat(limited, "openai/gpt-4o-mini", "Say something about trains.")),
      );
      expect(unlimited.every((reply) => reply.status === 200)).toBe(true);
    } finally {
      await limited.close();
    }
  });
});
