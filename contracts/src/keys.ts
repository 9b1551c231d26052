import { Type, type Static, type TSchema } from "@sinclair/typebox";

/** Prefix of every API key svc issues, so a key is told from the svc token and other bearers at a glance. */
export const API_KEY_PREFIX = "svc-k-";

/** How long a key lasts: `30d`, `12h`, `90m`, `2w`, or an ISO date(-time) when it stops working. */
export const KEY_EXPIRY_PATTERN = "^([1-9][0-9]{0,5}[mhdw]|[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9:.]+(Z|[+-][0-9]{2}:[0-9]{2})?)?)$";

/** OpenAI's `service_tier` values svc orders requests by, highest first: a key's tier is its requests' default and the highest they may ask for. */
export const SERVICE_TIERS = ["priority", "default", "flex"] as const;
export type ServiceTier = (typeof SERVICE_TIERS)[number];
export const ServiceTier = Type.Union([Type.Literal("priority"), Type.Literal("default"), Type.Literal("flex")], { description: "OpenAI's service_tier: `priority` before `default` before `flex` when a model is saturated." });

/** The largest value of each limit. */
export const KEY_LIMIT_MAX = { requestsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000, maxParallel: 100_000, dailyTokens: 1_000_000_000_000, monthlyTokens: 1_000_000_000_000 } as const;
const limitOf = (field: keyof typeof KEY_LIMIT_MAX, description: string) => Type.Integer({ minimum: 1, maximum: KEY_LIMIT_MAX[field], description });
const LIMIT_SCHEMAS = {
  requestsPerMinute: limitOf("requestsPerMinute", "Requests a minute."),
  tokensPerMinute: limitOf("tokensPerMinute", "Tokens (prompt + completion) a minute."),
  maxParallel: limitOf("maxParallel", "Requests in flight at once (waiting in the fair-share queue included)."),
  dailyTokens: limitOf("dailyTokens", "Tokens a UTC day."),
  monthlyTokens: limitOf("monthlyTokens", "Tokens a calendar month (UTC)."),
};
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * What a key may use through /v1, each null for no limit. Rates are per minute (token buckets
 * refilling evenly), budgets per UTC day and calendar month; tokens are prompt + completion.
 */
export const KeyLimits = Type.Object(
  {
    requestsPerMinute: orNull(LIMIT_SCHEMAS.requestsPerMinute),
    tokensPerMinute: orNull(LIMIT_SCHEMAS.tokensPerMinute),
    maxParallel: orNull(LIMIT_SCHEMAS.maxParallel),
    dailyTokens: orNull(LIMIT_SCHEMAS.dailyTokens),
    monthlyTokens: orNull(LIMIT_SCHEMAS.monthlyTokens),
  },
  { $id: "KeyLimits" },
);
export type KeyLimits = Static<typeof KeyLimits>;
export const KEY_LIMIT_FIELDS = ["requestsPerMinute", "tokensPerMinute", "maxParallel", "dailyTokens", "monthlyTokens"] as const satisfies ReadonlyArray<keyof KeyLimits>;
export const NO_LIMITS: KeyLimits = { requestsPerMinute: null, tokensPerMinute: null, maxParallel: null, dailyTokens: null, monthlyTokens: null };

/** Each limit in a few words, as the CLI's options and the UI's forms name it (tokens are prompt + completion). */
export const KEY_LIMIT_LABELS: Record<keyof KeyLimits, string> = {
  requestsPerMinute: "Requests a minute",
  tokensPerMinute: "Tokens a minute",
  maxParallel: "Requests in flight at once",
  dailyTokens: "Tokens a day (UTC)",
  monthlyTokens: "Tokens a month (UTC)",
};

const compactNumber = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
const LIMIT_UNITS: Record<keyof KeyLimits, string> = { requestsPerMinute: " rpm", tokensPerMinute: " tpm", maxParallel: " at once", dailyTokens: "/day", monthlyTokens: "/month" };

/** A key's limits in a few words ("60 rpm, 20K tpm, 4 at once, 2M/day"), or "none". */
export function limitsSummary(limits: KeyLimits): string {
  const parts = KEY_LIMIT_FIELDS.filter((field) => limits[field] !== null).map((field) => `${compactNumber.format(limits[field]!)}${LIMIT_UNITS[field]}`);
  return parts.length ? parts.join(", ") : "none";
}

/** A key's share of a saturated model against the other keys waiting for it (default 1: equal shares). */
export const KEY_WEIGHT_MAX = 100;
export const DEFAULT_KEY_WEIGHT = 1;
const keyWeight = Type.Integer({ minimum: 1, maximum: KEY_WEIGHT_MAX, description: "Share of a saturated model against the other keys waiting for it (default 1)." });

/** The limits, tier and weight a create or an update sets; a limit given as null is removed (an update). */
const keyPolicyFields = {
  requestsPerMinute: Type.Optional(orNull(LIMIT_SCHEMAS.requestsPerMinute)),
  tokensPerMinute: Type.Optional(orNull(LIMIT_SCHEMAS.tokensPerMinute)),
  maxParallel: Type.Optional(orNull(LIMIT_SCHEMAS.maxParallel)),
  dailyTokens: Type.Optional(orNull(LIMIT_SCHEMAS.dailyTokens)),
  monthlyTokens: Type.Optional(orNull(LIMIT_SCHEMAS.monthlyTokens)),
  tier: Type.Optional(ServiceTier),
  weight: Type.Optional(keyWeight),
};

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: "The key's first characters, to recognise it; the key itself is shown once, when created." }),
    models: Type.Union([Type.Array(Type.String()), Type.Null()], { description: "Repo ids the key may use through /v1; null: every model." }),
    createdAt: Type.String({ format: "date-time" }),
    expiresAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    lastUsedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    expired: Type.Boolean(),
    limits: KeyLimits,
    tier: ServiceTier,
    weight: keyWeight,
  },
  { $id: "ApiKey" },
);
export type ApiKey = Static<typeof ApiKey>;

const keyModels = Type.Array(Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$", maxLength: 256 }), {
  minItems: 1,
  maxItems: 256,
  description: "Limit the key to these repo ids (owner/name).",
});
const keyExpiry = Type.String({ pattern: KEY_EXPIRY_PATTERN, description: "`30d`, `12h`, `90m`, `2w`, or an ISO date(-time)." });

export const CreateKeyRequest = Type.Object(
  {
    name: Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$", description: "Who or what the key is for; unique." }),
    models: Type.Optional(keyModels),
    expires: Type.Optional(keyExpiry),
    ...keyPolicyFields,
  },
  {
    $id: "CreateKeyRequest",
    additionalProperties: false,
    examples: [{ name: "alice", models: ["svc-tiny/tiny-llama-gguf"], expires: "30d", requestsPerMinute: 60, maxParallel: 4, dailyTokens: 2_000_000, tier: "default" }],
  },
);
export type CreateKeyRequest = Static<typeof CreateKeyRequest>;

/** svc key update: what is given changes (a limit given as null is removed), the rest and the secret stay. */
export const UpdateKeyRequest = Type.Object(
  {
    models: Type.Optional(Type.Union([keyModels, Type.Null()], { description: "Repo ids the key may use; null: every model." })),
    expires: Type.Optional(Type.Union([keyExpiry, Type.Null()], { description: "A new expiry; null: never." })),
    ...keyPolicyFields,
  },
  { $id: "UpdateKeyRequest", additionalProperties: false, minProperties: 1, examples: [{ tokensPerMinute: 20_000, monthlyTokens: null, tier: "flex" }] },
);
export type UpdateKeyRequest = Static<typeof UpdateKeyRequest>;

export const CreatedKey = Type.Composite([ApiKey, Type.Object({ key: Type.String({ description: "The key: shown this once, kept only as a hash." }) })], { $id: "CreatedKey" });
export type CreatedKey = Static<typeof CreatedKey>;

export const KeyParams = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 128, description: "The key's id or name." }) });
