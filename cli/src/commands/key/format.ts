import type { ApiKey } from "@svc/contracts";

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/** A key's limits in a few words ("60 rpm, 20K tpm, 4 at once, 2M/day"), or "none". */
export function limitsText({ limits }: Pick<ApiKey, "limits">): string {
  const parts = [
    limits.requestsPerMinute !== null && `${compact.format(limits.requestsPerMinute)} rpm`,
    limits.tokensPerMinute !== null && `${compact.format(limits.tokensPerMinute)} tpm`,
    limits.maxParallel !== null && `${compact.format(limits.maxParallel)} at once`,
    limits.dailyTokens !== null && `${compact.format(limits.dailyTokens)}/day`,
    limits.monthlyTokens !== null && `${compact.format(limits.monthlyTokens)}/month`,
  ].filter((part): part is string => part !== false);
  return parts.length ? parts.join(", ") : "none";
}

/** Its tier, with its weight where that is not the default. */
export const tierText = (key: Pick<ApiKey, "tier" | "weight">) => (key.weight === 1 ? key.tier : `${key.tier} ×${key.weight}`);

/** One line about a key: its models, expiry, limits and tier. */
export function keySummary(key: ApiKey): string {
  const expiry = key.expiresAt ? `, expires ${key.expiresAt}` : "";
  return `Key '${key.name}' (${key.models ? key.models.join(", ") : "every model"}${expiry}); limits: ${limitsText(key)}; tier ${tierText(key)}.`;
}
