// What a page's Convex client has asked the backend for and what has been answered, read from
// its WebSocket frames: a test waits for the backend's answers rather than for a while.
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** As long as a step may take to show (harness UI_TIMEOUT_MS). */
const ANSWER_TIMEOUT_MS = 15_000;

/**
 * Per page: the newest subscription set the Convex client asked for (ModifyQuerySet's
 * newVersion) and the newest the backend has answered (Transition's endVersion.querySet).
 */
const subscriptionVersions = new WeakMap<Page, { asked: number; answered: number }>();

export function trackSubscriptions(page: Page): void {
  page.on("websocket", (socket) => {
    // A new connection (a page load, a reconnect) numbers its subscription sets from 0 again.
    const versions = { asked: 0, answered: 0 };
    subscriptionVersions.set(page, versions);
    const read = (payload: string | Buffer) => {
      try {
        return JSON.parse(payload.toString()) as {
          type?: string;
          newVersion?: number;
          endVersion?: { querySet?: number };
        };
      } catch {
        return {};
      }
    };
    socket.on("framesent", ({ payload }) => {
      const message = read(payload);
      if (message.type === "ModifyQuerySet") versions.asked = Math.max(versions.asked, message.newVersion ?? 0);
    });
    socket.on("framereceived", ({ payload }) => {
      const message = read(payload);
      if (message.type === "Transition")
        versions.answered = Math.max(versions.answered, message.endVersion?.querySet ?? 0);
    });
  });
}

/**
 * Waits until the backend has answered every subscription the page holds (its newest query set)
 * and the browser has rendered twice since: whatever those answers make React show or log is there.
 */
export async function subscriptionsAnswered(page: Page): Promise<void> {
  await expect
    .poll(
      () => {
        const versions = subscriptionVersions.get(page);
        return versions !== undefined && versions.asked > 0 && versions.answered >= versions.asked;
      },
      { timeout: ANSWER_TIMEOUT_MS },
    )
    .toBe(true);
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}
