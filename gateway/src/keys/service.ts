import { randomBytes, randomUUID } from "node:crypto";
import { eq, or } from "drizzle-orm";
import { API_KEY_PREFIX, ApiError, DEFAULT_KEY_WEIGHT, NO_LIMITS, type ApiKey, type CreatedKey, type CreateKeyRequest } from "@svc/contracts";
import type { GatewayDb } from "../db/connection";
import { apiKeys, type ApiKeyRow } from "../db/schema";
import { expiryOf } from "./expiry";

/** SHA-256, hex: Bun's one-shot hash (node:crypto's createHash took ~1.5 µs of every /v1 request, this ~0.4). */
const hashOf = (key: string) => Bun.SHA256.hash(key, "hex");
/** How often a key's last use is written: not on every request. */
const LAST_USED_EVERY_MS = 60_000;

export type KeyCheck = { kind: "valid"; row: ApiKeyRow; models: string[] | null } | { kind: "unknown" } | { kind: "expired"; row: ApiKeyRow };

/**
 * People's API keys for /v1: made here (the key shown once), kept as SHA-256 hashes in the
 * gateway's database, checked on every request against an in-memory copy that every change
 * updates at once, so a removed key is refused from the next request on.
 */
export class KeyRing {
  private byHash = new Map<string, ApiKeyRow>();

  constructor(private readonly db: GatewayDb) {
    this.reload();
  }

  private reload() {
    this.byHash = new Map(this.db.select().from(apiKeys).all().map((row) => [row.hash, row]));
  }

  list(now = new Date()): ApiKey[] {
    return [...this.byHash.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((row) => toApiKey(row, now));
  }

  create(request: CreateKeyRequest, now = new Date()): CreatedKey {
    if ([...this.byHash.values()].some((row) => row.name === request.name)) throw new ApiError(409, "conflict", `A key named '${request.name}' exists; remove it first (svc key rm ${request.name}) or choose another name.`);
    let expiresAt: string | null = null;
    if (request.expires !== undefined) {
      const at = expiryOf(request.expires, now);
      if (!at) throw new ApiError(400, "invalid_request", `expires '${request.expires}': give a duration (30d, 12h, 90m, 2w) or a date such as 2027-01-31.`);
      if (at.getTime() <= now.getTime()) throw new ApiError(400, "invalid_request", `expires '${request.expires}' is in the past.`);
      expiresAt = at.toISOString();
    }
    const key = `${API_KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
    const row: ApiKeyRow = {
      id: randomUUID(),
      name: request.name,
      hash: hashOf(key),
      prefix: key.slice(0, API_KEY_PREFIX.length + 4),
      models: request.models ? JSON.stringify([...new Set(request.models)]) : null,
      createdAt: now.toISOString(),
      expiresAt,
      lastUsedAt: null,
    };
    this.db.insert(apiKeys).values(row).run();
    this.byHash.set(row.hash, row);
    return { ...toApiKey(row, now), key };
  }

  /** Removes a key by id or name; it stops working at once. */
  remove(ref: string): ApiKey {
    const row = [...this.byHash.values()].find((candidate) => candidate.id === ref || candidate.name === ref);
    if (!row) throw new ApiError(404, "not_found", `No API key has the id or name '${ref}'; svc key ls lists them.`);
    this.db.delete(apiKeys).where(or(eq(apiKeys.id, row.id), eq(apiKeys.name, row.name))).run();
    this.byHash.delete(row.hash);
    return toApiKey(row, new Date());
  }

  check(key: string, now = new Date()): KeyCheck {
    const row = this.byHash.get(hashOf(key));
    if (!row) return { kind: "unknown" };
    if (row.expiresAt && Date.parse(row.expiresAt) <= now.getTime()) return { kind: "expired", row };
    if (!row.lastUsedAt || now.getTime() - Date.parse(row.lastUsedAt) > LAST_USED_EVERY_MS) {
      row.lastUsedAt = now.toISOString();
      this.db.update(apiKeys).set({ lastUsedAt: row.lastUsedAt }).where(eq(apiKeys.id, row.id)).run();
    }
    return { kind: "valid", row, models: row.models ? (JSON.parse(row.models) as string[]) : null };
  }
}

function toApiKey(row: ApiKeyRow, now: Date): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    models: row.models ? (JSON.parse(row.models) as string[]) : null,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    expired: row.expiresAt !== null && Date.parse(row.expiresAt) <= now.getTime(),
    limits: NO_LIMITS,
    tier: "default",
    weight: DEFAULT_KEY_WEIGHT,
  };
}
