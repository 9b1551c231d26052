import { closest, didYouMean, KEY_EXPIRY_PATTERN, KEY_LIMIT_MAX, SERVICE_TIERS, KEY_WEIGHT_MAX, type KeyLimits, type ServiceTier, type UpdateKeyRequest } from "@svc/contracts";
import { UsageError } from "../../errors";

/** Each limit's option and the field it sets. */
export const LIMIT_OPTIONS: ReadonlyArray<{ flag: string; cacName: string; field: keyof KeyLimits }> = [
  { flag: "--rpm", cacName: "rpm", field: "requestsPerMinute" },
  { flag: "--tpm", cacName: "tpm", field: "tokensPerMinute" },
  { flag: "--max-parallel", cacName: "maxParallel", field: "maxParallel" },
  { flag: "--daily-tokens", cacName: "dailyTokens", field: "dailyTokens" },
  { flag: "--monthly-tokens", cacName: "monthlyTokens", field: "monthlyTokens" },
];

export const TIER_DESCRIPTION = `Default service_tier of its requests and the highest they may ask for: ${SERVICE_TIERS.join(", ")} (default: default)`;
export const WEIGHT_DESCRIPTION = `Share of a saturated model against other keys, 1 to ${KEY_WEIGHT_MAX} (default 1)`;

/** The word that removes a limit, the model list or the expiry in `svc key update`. */
const NONE = "none";

function whole(flag: string, value: unknown, max: number, removable: boolean): number | null {
  if (value === true) throw new UsageError(`${flag} needs a value, e.g. ${flag} 60.`);
  const text = String(value).trim();
  if (removable && text === NONE) return null;
  const number = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 1 || number > max) {
    throw new UsageError(`${flag} ${JSON.stringify(text)}: give a whole number from 1 to ${max}${removable ? ` (or ${NONE} to remove it)` : ""}.`);
  }
  return number;
}

function tierOf(value: unknown): ServiceTier {
  const text = String(value).trim();
  const tier = SERVICE_TIERS.find((candidate) => candidate === text);
  if (!tier) throw new UsageError(`--tier ${JSON.stringify(text)}: use ${SERVICE_TIERS.join(", ")}.${didYouMean(closest(text, SERVICE_TIERS))}`);
  return tier;
}

function modelsOf(value: unknown, removable: boolean): string[] | null {
  const text = String(value).trim();
  if (removable && text === NONE) return null;
  const models = text.split(",").map((m) => m.trim()).filter(Boolean);
  if (value === true || models.length === 0) throw new UsageError(`--models needs repo ids, e.g. --models owner/a,owner/b${removable ? ` (or ${NONE}: every model)` : ""}.`);
  return models;
}

function expiresOf(value: unknown, removable: boolean): string | null {
  const text = String(value).trim();
  if (removable && (text === NONE || text === "never")) return null;
  if (value === true || !new RegExp(KEY_EXPIRY_PATTERN).test(text)) throw new UsageError(`--expires ${text}: give a duration (30d, 12h, 90m, 2w) or a date such as 2027-01-31${removable ? " (or never)" : ""}.`);
  return text;
}

/**
 * cac's parsed options of `svc key create` or `svc key update` (camelCase, numbers as numbers) as
 * the fields they set, checked here so a wrong one is a usage error naming its option before
 * anything is sent. `update`: `none` removes a limit or the model list, `never` the expiry.
 */
export function keyFieldsFrom(options: Record<string, unknown>, update: boolean): UpdateKeyRequest {
  const fields: UpdateKeyRequest = {};
  for (const { flag, cacName, field } of LIMIT_OPTIONS) {
    if (options[cacName] !== undefined) fields[field] = whole(flag, options[cacName], KEY_LIMIT_MAX[field], update);
  }
  if (options.tier !== undefined) fields.tier = tierOf(options.tier);
  if (options.weight !== undefined) fields.weight = whole("--weight", options.weight, KEY_WEIGHT_MAX, false)!;
  if (options.models !== undefined) fields.models = modelsOf(options.models, update);
  if (options.expires !== undefined) fields.expires = expiresOf(options.expires, update);
  return fields;
}
