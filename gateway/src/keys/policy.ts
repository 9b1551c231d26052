import { DEFAULT_KEY_WEIGHT, KEY_LIMIT_FIELDS, NO_LIMITS, type CreateKeyRequest, type KeyLimits, type UpdateKeyRequest } from "@svc/contracts";
import type { ApiKeyRow } from "../db/schema";
import type { KeyPolicy } from "../openai/caller";

type PolicyColumns = Pick<ApiKeyRow, keyof KeyLimits | "tier" | "weight">;

/** A key's limits, tier and weight, from its row. */
export function policyOf(row: ApiKeyRow): KeyPolicy {
  const limits = Object.fromEntries(KEY_LIMIT_FIELDS.map((field) => [field, row[field]])) as KeyLimits;
  return { limits, tier: row.tier, weight: row.weight };
}

/** The policy columns an update changes: those it gives (a limit given as null is removed). */
export function changedPolicy(request: CreateKeyRequest | UpdateKeyRequest): Partial<PolicyColumns> {
  const columns: Partial<PolicyColumns> = {};
  for (const field of KEY_LIMIT_FIELDS) if (request[field] !== undefined) columns[field] = request[field];
  if (request.tier !== undefined) columns.tier = request.tier;
  if (request.weight !== undefined) columns.weight = request.weight;
  return columns;
}

/** A new key's policy columns: what is not given has no limit, the default tier and weight. */
export const createdPolicy = (request: CreateKeyRequest): PolicyColumns => ({ ...NO_LIMITS, tier: "default", weight: DEFAULT_KEY_WEIGHT, ...changedPolicy(request) });
