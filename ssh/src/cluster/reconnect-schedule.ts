/**
 * When an SSH connection to a cluster is tried again. After a connection drops, svc reconnects at
 * once, without waiting for anyone to need it. After each failed attempt it waits, first
 * FIRST_RETRY_MS and then twice as long each time, up to MAX_RETRY_MS: 0.1, 0.2, 0.4, 0.8, 1.6, 3.2,
 * 6.4 s, then 10 s. A restarted sshd (back within ~0.3 s) is reached again a fraction of a second
 * after it is back. A cluster that stays down gets 7 attempts in its first 10 s, then 6 a minute
 * (never more than 4 in any second).
 */
export const FIRST_RETRY_MS = 100;
export const MAX_RETRY_MS = 10_000;

/** How long to wait before the next attempt after `failures` failed attempts in a row (0: at once). */
export function retryDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(failures - 1, 30));
}
