/** The gateway's fair-share settings from the environment: defaults, each variable read, a bad value named. */
import { expect, test } from "bun:test";
import { ConfigError, FAIR_SHARE_DEFAULTS, parseFairShare, parseUsageRetentionDays } from "../src/config";

test("defaults: on, 60 s, 256 a key; each variable sets its own", () => {
  expect(parseFairShare({})).toEqual({ enabled: true, queueSeconds: 60, perKey: 256 });
  expect(FAIR_SHARE_DEFAULTS).toEqual(parseFairShare({ SVC_FAIR_SHARE: " ", SVC_FAIR_SHARE_QUEUE_SECONDS: "" }));
  expect(parseFairShare({ SVC_FAIR_SHARE: "false", SVC_FAIR_SHARE_QUEUE_SECONDS: "5", SVC_FAIR_SHARE_QUEUE_PER_KEY: "16" })).toEqual({ enabled: false, queueSeconds: 5, perKey: 16 });
  expect(parseFairShare({ SVC_FAIR_SHARE: "off" }).enabled).toBe(false);
});

test("a bad value stops start-up naming the variable and what it takes", () => {
  expect(() => parseFairShare({ SVC_FAIR_SHARE: "maybe" })).toThrow(ConfigError);
  expect(() => parseFairShare({ SVC_FAIR_SHARE: "maybe" })).toThrow('SVC_FAIR_SHARE="maybe" is not a boolean');
  expect(() => parseFairShare({ SVC_FAIR_SHARE_QUEUE_SECONDS: "0" })).toThrow('SVC_FAIR_SHARE_QUEUE_SECONDS="0": use a whole number of seconds from 1 to 3600 (default 60).');
  expect(() => parseFairShare({ SVC_FAIR_SHARE_QUEUE_PER_KEY: "2.5" })).toThrow('SVC_FAIR_SHARE_QUEUE_PER_KEY="2.5": use a whole number of requests from 1 to 100000 (default 256).');
  // The usage retention reads the same way (one parser for both).
  expect(() => parseUsageRetentionDays({ SVC_USAGE_RETENTION_DAYS: "-1" })).toThrow('SVC_USAGE_RETENTION_DAYS="-1": use a whole number of days from 1 to 36500 (default 90).');
  expect(parseUsageRetentionDays({ SVC_USAGE_RETENTION_DAYS: "7" })).toBe(7);
});
