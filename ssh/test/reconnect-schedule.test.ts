import { describe, expect, test } from "bun:test";
import { FIRST_RETRY_MS, MAX_RETRY_MS, retryDelayMs, WAITED_RETRY_MS } from "../src/cluster/reconnect-schedule";

/**
 * When the attempts after a drop start, for a cluster that stays down (each attempt failing at
 * once), over `ms`; `waitedFor`: calls wait for the connection all along.
 */
function attemptTimes(ms: number, waitedFor = false): number[] {
  const times: number[] = [];
  for (let at = 0, failures = 0; at <= ms; failures++) {
    times.push(at);
    at += retryDelayMs(failures + 1, waitedFor);
  }
  return times;
}

const mostWithin = (times: number[], windowMs: number) => Math.max(...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));

describe("the SSH reconnect schedule", () => {
  test("the first attempt after a drop is at once, and the first retries are quick", () => {
    expect(retryDelayMs(0)).toBe(0);
    expect(retryDelayMs(1)).toBe(FIRST_RETRY_MS);
    expect(FIRST_RETRY_MS).toBeLessThanOrEqual(100);
    // An sshd restart (down ~0.3 s) is retried within its first second four times.
    expect(attemptTimes(1000)).toEqual([0, 100, 300, 700]);
  });

  test("the wait grows after each failure and stops growing at its cap", () => {
    const delays = Array.from({ length: 40 }, (_, i) => retryDelayMs(i + 1));
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
    expect(Math.max(...delays)).toBe(MAX_RETRY_MS);
    expect(delays.at(-1)).toBe(MAX_RETRY_MS);
    expect(MAX_RETRY_MS).toBe(10_000);
    expect(retryDelayMs(10_000)).toBe(MAX_RETRY_MS);
  });

  test("a cluster that stays down is not hammered: at most 4 attempts in any second, 7 in the first 10 s, then 6 a minute", () => {
    const hour = attemptTimes(3_600_000);
    expect(mostWithin(hour, 1000)).toBeLessThanOrEqual(4);
    expect(hour.filter((t) => t < 10_000)).toHaveLength(7);
    const later = hour.filter((t) => t >= 60_000);
    expect(mostWithin(later, 60_000)).toBeLessThanOrEqual(6);
    expect(hour.length).toBeLessThan(370);
  });

  test("while calls wait for the connection, an sshd back after seconds is tried within half a second, not at the next doubled wait", () => {
    expect(WAITED_RETRY_MS).toBeLessThanOrEqual(500);
    const waited = attemptTimes(20_000, true);
    expect(waited.slice(0, 4)).toEqual([0, 100, 300, 700]);
    // Wherever in its first 20 s sshd comes back, the next attempt is at most WAITED_RETRY_MS later.
    for (let i = 1; i < waited.length; i++) expect(waited[i] - waited[i - 1]).toBeLessThanOrEqual(WAITED_RETRY_MS);
    // Without calls waiting, one back after 3.2 s would wait until 6.3 s.
    expect(attemptTimes(10_000).find((t) => t >= 3200)).toBe(6300);
  });

  test("a cluster that stays down while calls keep waiting: at most 2 attempts in any second, for about 20 s, then 6 a minute", () => {
    const hour = attemptTimes(3_600_000, true);
    expect(mostWithin(hour, 1000)).toBeLessThanOrEqual(4);
    expect(mostWithin(hour.filter((t) => t >= 1000), 1000)).toBeLessThanOrEqual(2);
    expect(hour.filter((t) => t < 30_000).length).toBeLessThan(50);
    const later = hour.filter((t) => t >= 30_000);
    expect(mostWithin(later, 60_000)).toBeLessThanOrEqual(6);
    expect(hour.length).toBeLessThan(410);
  });
});
