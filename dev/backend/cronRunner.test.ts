// @vitest-environment node
import { describe, expect, it } from "vitest";
import { nextCronTime, nextRunAfter } from "./cronRunner";

const at = (iso: string) => Date.parse(iso);

describe("cron schedules", () => {
  it("finds the next matching minute of a cron expression, in UTC", () => {
    expect(nextCronTime("*/15 * * * *", at("2025-01-01T10:07:30Z"))).toBe(at("2025-01-01T10:15:00Z"));
    expect(nextCronTime("0 3 * * *", at("2025-01-01T03:00:00Z"))).toBe(at("2025-01-02T03:00:00Z"));
    expect(nextCronTime("30 9 * * mon-fri", at("2025-01-03T10:00:00Z"))).toBe(at("2025-01-06T09:30:00Z"));
    expect(nextCronTime("0 0 1 jan *", at("2025-03-01T00:00:00Z"))).toBe(at("2026-01-01T00:00:00Z"));
    expect(nextCronTime("0 12 1,15 * *", at("2025-02-01T12:00:00Z"))).toBe(at("2025-02-15T12:00:00Z"));
    // Day of month and day of week both restricted: either matches.
    expect(nextCronTime("0 0 13 * 5", at("2025-06-01T00:00:00Z"))).toBe(at("2025-06-06T00:00:00Z"));
    expect(nextCronTime("0 0 * * 7", at("2025-06-01T00:00:00Z"))).toBe(at("2025-06-08T00:00:00Z"));
    expect(() => nextCronTime("0 0 31 2 *", at("2025-01-01T00:00:00Z"))).toThrow(/never fires/);
    expect(() => nextCronTime("every minute", 0)).toThrow(/unsupported/);
  });

  it("turns the Crons helpers' schedules into run times", () => {
    const now = at("2025-05-05T10:20:30Z");
    expect(nextRunAfter({ type: "interval", seconds: 30 }, now)).toBe(now + 30_000);
    expect(nextRunAfter({ type: "interval", minutes: 2 }, now)).toBe(now + 120_000);
    expect(nextRunAfter({ type: "interval", hours: 1 }, now)).toBe(now + 3_600_000);
    expect(nextRunAfter({ type: "hourly", minuteUTC: 5 }, now)).toBe(at("2025-05-05T11:05:00Z"));
    expect(nextRunAfter({ type: "daily", hourUTC: 2, minuteUTC: 0 }, now)).toBe(at("2025-05-06T02:00:00Z"));
    expect(nextRunAfter({ type: "weekly", dayOfWeek: "sunday", hourUTC: 0, minuteUTC: 0 }, now)).toBe(
      at("2025-05-11T00:00:00Z"),
    );
    expect(nextRunAfter({ type: "monthly", day: 1, hourUTC: 0, minuteUTC: 0 }, now)).toBe(at("2025-06-01T00:00:00Z"));
    expect(nextRunAfter({ type: "cron", cron: "0 * * * *" }, now)).toBe(at("2025-05-05T11:00:00Z"));
    // Without a minute, a job keeps one fixed minute of its own.
    const hourly = nextRunAfter({ type: "hourly" }, now, "cleanup");
    expect(nextRunAfter({ type: "hourly" }, hourly, "cleanup") - hourly).toBe(3_600_000);
  });
});
