/** API keys are found by their SHA-256 (a key stored by an older gateway, node:crypto's hex digest, is still recognised); their limits, tier and weight, set and updated. */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NO_LIMITS } from "@svc/contracts";
import { openGatewayDb } from "../src/db/connection";
import { apiKeys } from "../src/db/schema";
import { KeyRing } from "../src/keys/service";

const dir = mkdtempSync(join(tmpdir(), "svc-key-ring-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a key whose row was written with node:crypto's SHA-256 is valid; a made-up one is not", () => {
  const db = openGatewayDb(dir);
  const key = "svc-k-older-gateway-key-0123456789abcdef";
  db.insert(apiKeys)
    .values({ id: "k-old", name: "older", hash: createHash("sha256").update(key).digest("hex"), prefix: key.slice(0, 10), models: null, createdAt: new Date().toISOString(), expiresAt: null, lastUsedAt: null })
    .run();
  const keys = new KeyRing(db);
  const check = keys.check(key);
  expect(check.kind).toBe("valid");
  expect(check.kind === "valid" && check.row.id).toBe("k-old");
  expect(keys.check(`${key}x`).kind).toBe("unknown");
  // And a key made now is found the same way.
  const made = keys.create({ name: "newer" });
  expect(keys.check(made.key).kind).toBe("valid");
  db.$client.close();
});

describe("limits, tier and weight", () => {
  test("create sets them (the rest: no limit, tier default, weight 1); they survive a reload from the database", () => {
    const db = openGatewayDb(dir, "limits.sqlite");
    const keys = new KeyRing(db);
    const made = keys.create({ name: "alice", requestsPerMinute: 60, dailyTokens: 2_000_000, tier: "flex", weight: 3 });
    expect(made).toMatchObject({ limits: { requestsPerMinute: 60, tokensPerMinute: null, maxParallel: null, dailyTokens: 2_000_000, monthlyTokens: null }, tier: "flex", weight: 3 });
    expect(keys.create({ name: "bob" })).toMatchObject({ limits: NO_LIMITS, tier: "default", weight: 1 });
    const reloaded = new KeyRing(db).list().find((key) => key.name === "alice");
    expect(reloaded).toMatchObject({ limits: made.limits, tier: "flex", weight: 3 });
    const check = keys.check(made.key);
    expect(check.kind === "valid" && check.policy).toEqual({ limits: made.limits, tier: "flex", weight: 3 });
    db.$client.close();
  });

  test("update changes what it gives (null removes a limit), keeps the secret and the rest; unknown key 404; a bad expiry changes nothing", () => {
    const db = openGatewayDb(dir, "update.sqlite");
    const keys = new KeyRing(db);
    const made = keys.create({ name: "carol", models: ["owner/a"], requestsPerMinute: 10, monthlyTokens: 5000 });
    const updated = keys.update("carol", { tokensPerMinute: 20_000, monthlyTokens: null, tier: "priority" });
    expect(updated).toMatchObject({ id: made.id, models: ["owner/a"], limits: { requestsPerMinute: 10, tokensPerMinute: 20_000, monthlyTokens: null }, tier: "priority", weight: 1 });
    const check = keys.check(made.key);
    expect(check.kind).toBe("valid");
    expect(check.kind === "valid" && check.policy.limits.tokensPerMinute).toBe(20_000);
    expect(keys.update(made.id, { models: null, expires: "30d" })).toMatchObject({ models: null, expired: false });
    expect(() => keys.update("nobody", { requestsPerMinute: 1 })).toThrow(expect.objectContaining({ status: 404, code: "not_found" }));
    expect(() => keys.update("carol", { requestsPerMinute: 99, expires: "2001-01-01" })).toThrow(expect.objectContaining({ status: 400 }));
    expect(new KeyRing(db).list()[0]).toMatchObject({ limits: { requestsPerMinute: 10 }, models: null });
    db.$client.close();
  });
});
