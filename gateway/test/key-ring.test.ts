/** API keys are found by their SHA-256: a key stored by an older gateway (node:crypto's hex digest) is still recognised. */
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
