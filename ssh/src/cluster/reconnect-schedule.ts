/**
 * When an SSH connection to a cluster is tried again. After a connection drops, svc reconnects at
 * once, without waiting for anyone to need it. After each failed attempt it waits, first
 * FIRST_RETRY_MS and then twice as long each time, up to MAX_RETRY_MS: 0.1, 0.2, 0.4, 0.8, 1.6, 3.2,
 * 6.4 s, then 10 s. A cluster that stays down gets 7 attempts in its first 10 s, then 6 a minute
 * (never more than 4 in any second).
 *
 * While a call (a request through a tunnel, a command) is waiting for the connection, the wait is
 * at most WAITED_RETRY_MS, so an sshd that was down for seconds is reached again within half a
 * second of being back, not at the next doubled wait (up to 6.4 s later). That holds for the first
 * WAITED_RETRIES failures in a row only (about 20 s): a cluster that stays down while calls keep
 * coming gets at most 2 attempts a second for those, then the same 6 a minute.
 */
export const FIRST_RETRY_MS = 100;
export const MAX_RETRY_MS = 10_000;
export const WAITED_RETRY_MS = 500;
export const WAITED_RETRIES = 40;

/**
 * How long to wait before the next attempt after `failures` failed attempts in a row (0: at once);
 * `waitedFor`: a call is waiting for the connection.
 */
export function retryDelayMs(failures: number, waitedFor = false): number {
  if (failures <= 0) return 0;
  const scheduled = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(failures - 1, 30));
  return waitedFor && failures <= WAITED_RETRIES ? Math.min(scheduled, WAITED_RETRY_MS) : scheduled;
}
