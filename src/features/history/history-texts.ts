export const HISTORY_LOAD_FAILED = "Failed to load test history";

export function historyLimitNote(shown: number, total: number): string {
  return `Showing your ${shown} most recent of ${total} tests.`;
}
