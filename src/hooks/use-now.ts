import { useEffect, useState } from "react";

/**
 * The current time in Unix milliseconds, re-read every `intervalMs` so that elapsed times and
 * relative times in the UI tick (render code must not call Date.now() on its own).
 */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
