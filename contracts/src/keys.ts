import { Type, type Static } from "@sinclair/typebox";

/** Prefix of every API key svc issues, so a key is told from the svc token and other bearers at a glance. */
export const API_KEY_PREFIX = "svc-k-";

/** How long a key lasts: `30d`, `12h`, `90m`, `2w`, or an ISO date(-time) when it stops working. */
export const KEY_EXPIRY_PATTERN = "^([1-9][0-9]{0,5}[mhdw]|[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9:.]+(Z|[+-][0-9]{2}:[0-9]{2})?)?)$";

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
  },
  { $id: "ApiKey" },
);
export type ApiKey = Static<typeof ApiKey>;

export const CreateKeyRequest = Type.Object(
  {
    name: Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$", description: "Who or what the key is for; unique." }),
    models: Type.Optional(
      Type.Array(Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$", maxLength: 256 }), { minItems: 1, maxItems: 256, description: "Limit the key to these repo ids (owner/name)." }),
    ),
    expires: Type.Optional(Type.String({ pattern: KEY_EXPIRY_PATTERN, description: "`30d`, `12h`, `90m`, `2w`, or an ISO date(-time)." })),
  },
  { $id: "CreateKeyRequest", additionalProperties: false, examples: [{ name: "alice", models: ["svc-tiny/tiny-llama-gguf"], expires: "30d" }] },
);
export type CreateKeyRequest = Static<typeof CreateKeyRequest>;

export const CreatedKey = Type.Composite([ApiKey, Type.Object({ key: Type.String({ description: "The key: shown this once, kept only as a hash." }) })], { $id: "CreatedKey" });
export type CreatedKey = Static<typeof CreatedKey>;

export const KeyParams = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 128, description: "The key's id or name." }) });
