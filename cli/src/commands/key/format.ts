import { limitsSummary, type ApiKey } from "@svc/contracts";

/** Its tier, with its weight where that is not the default. */
export const tierText = (key: Pick<ApiKey, "tier" | "weight">) => (key.weight === 1 ? key.tier : `${key.tier} ×${key.weight}`);

/** One line about a key: its models, expiry, limits and tier. */
export function keySummary(key: ApiKey): string {
  const expiry = key.expiresAt ? `, expires ${key.expiresAt}` : "";
  return `Key '${key.name}' (${key.models ? key.models.join(", ") : "every model"}${expiry}); limits: ${limitsSummary(key.limits)}; tier ${tierText(key)}.`;
}
