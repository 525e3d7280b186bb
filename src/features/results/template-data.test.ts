import { describe, expect, it } from "vitest";

import { makeResults } from "@/test/fixtures/results";
import { templateDataOf } from "./template-data";

describe("a finished test saved as a template", () => {
  it("keeps its checks (topics by place), repeats and stop-when-settled question, without the test's seed", () => {
    const config = makeResults().test.configuration;
    const topicId = config.topics[0]!.id;
    const data = templateDataOf({
      ...config,
      checks: [{ id: "c1", kind: "contains", value: "refund", topicId }],
      failedChecksRankLast: true,
      stopWhenSettled: { question: "best", confidence: 0.95, seed: "this-test-only" },
      repeats: 3,
    });
    expect(data).toMatchObject({
      checks: [{ id: "c1", kind: "contains", value: "refund", topicIndex: 0 }],
      failedChecksRankLast: true,
      stopWhenSettled: { question: "best", confidence: 0.95 },
      repeats: 3,
    });
    expect(data.stopWhenSettled).not.toHaveProperty("seed");
    expect(templateDataOf(config)).not.toHaveProperty("repeats");
  });
});
