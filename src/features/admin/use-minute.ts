import { useEffect, useState } from "react";

const MINUTE = 60_000;

function currentMinute(): number {
  return Math.floor(Date.now() / MINUTE) * MINUTE;
}

/**
 * The current time rounded down to the minute, re-read every few seconds. Queries take it as an
 * argument (they must not read the clock), and it changes once a minute, so the subscription
 * only moves on when a minute has passed and stuck jobs appear without a reload.
 */
export function useMinute(checkEveryMs = 5_000): number {
  const [minute, setMinute] = useState(currentMinute);
  useEffect(() => {
    const timer = window.setInterval(() => setMinute(currentMinute()), checkEveryMs);
    return () => window.clearInterval(timer);
  }, [checkEveryMs]);
  return minute;
}
