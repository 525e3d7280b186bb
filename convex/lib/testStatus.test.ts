import { describe, expect, it } from "vitest";
import { canStop, hasEnded, hasJobEnded } from "./testStatus";

describe("test status rules", () => {
  it("offers Stop Test only while running", () => {
    expect(canStop("running")).toBe(true);
    expect(canStop("pending")).toBe(false);
    expect(canStop("completed")).toBe(false);
    expect(canStop("failed")).toBe(false);
    expect(canStop("cancelled")).toBe(false);
  });

  it("a completed, failed or cancelled test has ended; a pending or running one has not", () => {
    const statuses = ["pending", "running", "completed", "failed", "cancelled"] as const;
    expect(statuses.filter((status) => hasEnded(status))).toEqual(["completed", "failed", "cancelled"]);
  });

  it("a job still waiting for payment, queued or processing is ended with its test", () => {
    const statuses = ["pending_payment", "queued", "processing", "completed", "failed", "cancelled"] as const;
    expect(statuses.filter((status) => !hasJobEnded(status))).toEqual(["pending_payment", "queued", "processing"]);
  });
});
