import { randomBytes, randomUUID } from "node:crypto";
import { eq, or } from "drizzle-orm";
import { API_KEY_PREFIX, ApiError, type ApiKey, type CreatedKey, type CreateKeyRequest, type UpdateKeyRequest } from "@svc/contracts";
import type { GatewayDb } from "../db/connection";
import { apiKeys, type ApiKeyRow } from "../db/schema";
import type { KeyPolicy } from "../openai/caller";
import { expiryOf } from "./expiry";
import { changedPolicy, createdPolicy, policyOf } from "./policy";

/** SHA-256, hex: Bun's one-shot hash (node:crypto's createHash took ~1.5 µs of every /v1 request, this ~0.4). */
const hashOf = (key: string) => Bun.SHA256.hash(key, "hex");
/** How often a key's last use is written: not on every request. */
const LAST_USED_EVERY_MS = 60_000;

export type KeyCheck = { kind: "valid"; row: ApiKeyRow; models: string[] | null; policy: KeyPolicy } | { kind: "unknown" } | { kind: "expired"; row: ApiKeyRow };

/** A key as every /v1 request reads it: its row, and what the row's JSON and columns say, parsed once. */
interface KeyEntry {
  row: ApiKeyRow;
  models: string[] | null;
  policy: KeyPolicy;
}

const entryOf = (row: ApiKeyRow): KeyEntry => ({ row, models: row.models ? (JSON.parse(row.models) as string[]) : null, policy: policyOf(row) });

/**
 * People's API keys for /v1: made here (the key shown once), kept as SHA-256 hashes in the
 * gateway's database, checked on every request against an in-memory copy that every change
 * updates at once, so a removed key is refused from the next request on.
 */
export class KeyRing {
  private byHash = new Map<string, KeyEntry>();

  constructor(private readonly db: GatewayDb) {
    this.reload();
  }

  private reload() {
    this.byHash = new Map(this.db.select().from(apiKeys).all().map((row) => [row.hash, entryOf(row)]));
  }

  private rows(): ApiKeyRow[] {
    return [...this.byHash.values()].map((entry) => entry.row);
  }

  list(now = new Date()): ApiKey[] {
    return this.rows()
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((row) => toApiKey(row, now));
  }

  /** Every key's id and policy (what admission rebuilds its counters for at start). */
  policies(): Array<{ id: string; name: string; policy: KeyPolicy }> {
    return [...this.byHash.values()].map(({ row, policy }) => ({ id: row.id, name: row.name, policy }));
  }

  create(request: CreateKeyRequest, now = new Date()): CreatedKey {
    if (this.rows().some((row) => row.name === request.name)) throw new ApiError(409, "conflict", `A key named '${request.name}' exists; remove it first (svc key rm ${request.name}) or choose another name.`);
    const expiresAt = request.expires === undefined ? null : expiryText(request.expires, now);
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
      ...createdPolicy(request),
    };
    this.db.insert(apiKeys).values(row).run();
    this.byHash.set(row.hash, entryOf(row));
    return { ...toApiKey(row, now), key };
  }

  /** Changes what `request` gives of a key (by id or name): the same secret, the rest as it was. Checked whole before anything is written. */
  update(ref: string, request: UpdateKeyRequest, now = new Date()): ApiKey {
    const row = this.find(ref);
    const changed: Partial<ApiKeyRow> = changedPolicy(request);
    if (request.models !== undefined) changed.models = request.models === null ? null : JSON.stringify([...new Set(request.models)]);
    if (request.expires !== undefined) changed.expiresAt = request.expires === null ? null : expiryText(request.expires, now);
    const next: ApiKeyRow = { ...row, ...changed };
    if (Object.keys(changed).length > 0) this.db.update(apiKeys).set(changed).where(eq(apiKeys.id, row.id)).run();
    this.byHash.set(next.hash, entryOf(next));
    return toApiKey(next, now);
  }

  private find(ref: string): ApiKeyRow {
    const row = this.rows().find((candidate) => candidate.id === ref || candidate.name === ref);
    if (!row) throw new ApiError(404, "not_found", `No API key has the id or name '${ref}'; svc key ls lists them.`);
    return row;
  }

  /** Removes a key by id or name; it stops working at once. */
  remove(ref: string): ApiKey {
    const row = this.find(ref);
    this.db.delete(apiKeys).where(or(eq(apiKeys.id, row.id), eq(apiKeys.name, row.name))).run();
    this.byHash.delete(row.hash);
    return toApiKey(row, new Date());
  }

  check(key: string, now = new Date()): KeyCheck {
    const entry = this.byHash.get(hashOf(key));
    if (!entry) return { kind: "unknown" };
    const { row } = entry;
    if (row.expiresAt && Date.parse(row.expiresAt) <= now.getTime()) return { kind: "expired", row };
    if (!row.lastUsedAt || now.getTime() - Date.parse(row.lastUsedAt) > LAST_USED_EVERY_MS) {
      row.lastUsedAt = now.toISOString();
      this.db.update(apiKeys).set({ lastUsedAt: row.lastUsedAt }).where(eq(apiKeys.id, row.id)).run();
    }
    return { kind: "valid", row, models: entry.models, policy: entry.policy };
  }
}

/** When a key given `expires` stops working, as stored; a 400 for one that does not parse or is past. */
function expiryText(expires: string, now: Date): string {
  const at = expiryOf(expires, now);
  if (!at) throw new ApiError(400, "invalid_request", `expires '${expires}': give a duration (30d, 12h, 90m, 2w) or a date such as 2027-01-31.`, { field: "expires" });
  if (at.getTime() <= now.getTime()) throw new ApiError(400, "invalid_request", `expires '${expires}' is in the past.`, { field: "expires" });
  return at.toISOString();
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
    ...policyOf(row),
  };
}
