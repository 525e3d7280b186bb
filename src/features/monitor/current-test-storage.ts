// The spec's "current test" (part 1 §4, part 2 §2): the test this browser tab last watched on
// the monitor. It outlives completion (so /dashboard/results can lead to its results) and is
// cleared when the user stops the test. Kept per tab, like the product's in-memory state, and
// never trusted: the server checks ownership of any id read back from here.
const STORAGE_KEY = "modeljury.currentTestId";

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings); the current test is then simply forgotten.
    return null;
  }
}

export function readCurrentTestId(): string | null {
  const value = storage()?.getItem(STORAGE_KEY);
  return value ? value : null;
}

export function rememberCurrentTestId(testId: string): void {
  try {
    storage()?.setItem(STORAGE_KEY, testId);
  } catch {
    // Quota or privacy mode: not worth interrupting the monitor for.
  }
}

/** Forgets the current test; with `onlyIf`, only when that is the test remembered. */
export function forgetCurrentTestId(onlyIf?: string): void {
  const store = storage();
  if (!store) return;
  if (onlyIf !== undefined && store.getItem(STORAGE_KEY) !== onlyIf) return;
  store.removeItem(STORAGE_KEY);
}
