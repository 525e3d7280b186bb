// A random id for this browser, sent with sign-ins. Once a sign-in from this browser succeeds,
// the server knows it, and a stranger's failed guesses on the account do not slow it down
// (convex/core/authThrottle.ts). It is not a secret credential: it only skips the back-off.
const KEY = "modeljury.device";

export function deviceId(): string | undefined {
  try {
    let id = window.localStorage.getItem(KEY);
    if (!id) {
      id = crypto.randomUUID();
      window.localStorage.setItem(KEY, id);
    }
    return id;
  } catch {
    return undefined; // storage blocked: sign-in works, without the known-browser bypass
  }
}

/** Sign-in params with this browser's id added. */
export function withDevice<T extends Record<string, string>>(params: T): T & { device?: string } {
  const device = deviceId();
  return device === undefined ? params : { ...params, device };
}
