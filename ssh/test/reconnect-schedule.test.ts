import { describe, expect, test } from "bun:test";
import { FIRST_RETRY_MS, MAX_RETRY_MS, retryDelayMs } from "../src/cluster/reconnect-schedule";

/** When the attempts after a drop start, for a cluster that stays down (each attempt failing at once), over `ms`. */
function attemptTimes(ms: number): number[] {
  const times: number[] = [];
  for (let at = 0, failures = 0; at <= ms; failures++) {
    times.push(at);
    at += retryDelayMs(failures + 1);
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
});
