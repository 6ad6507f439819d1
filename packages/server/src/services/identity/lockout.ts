export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

export interface Lockout {
  locked: boolean;
  /** When the next login may be tried (locked only). */
  until?: Date;
}

/**
 * Brute-force lock-out over a sliding window: with 5 failed logins for one e-mail in the last
 * 15 minutes, logins for it are refused until enough of those failures are older than 15 minutes.
 */
export function lockoutState(failures: readonly Date[], now: Date): Lockout {
  const windowStart = now.getTime() - LOCKOUT_WINDOW_MS;
  const recent = failures.map((d) => d.getTime()).filter((t) => t > windowStart).sort((a, b) => a - b);
  if (recent.length < LOCKOUT_FAILURES) return { locked: false };
  // The lock lifts when only LOCKOUT_FAILURES - 1 failures remain inside the window.
  const releasing = recent[recent.length - LOCKOUT_FAILURES];
  return { locked: true, until: new Date(releasing + LOCKOUT_WINDOW_MS) };
}
