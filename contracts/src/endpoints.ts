import { Type, type Static } from "@sinclair/typebox";

/** An outside endpoint's name: as a service's, letters, digits, `.`, `_` and `-`. */
export const ENDPOINT_NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$";

/** A model id as an OpenAI-compatible server names it (`owner/name`, `gpt-4o-mini`, a path). */
const OutsideModelId = Type.String({ minLength: 1, maxLength: 256, pattern: "^[^\\s]+$" });

/**
 * An OpenAI-compatible server svc did not launch whose models /v1 serves (svc endpoint add): the
 * gateway adds the endpoint's own API key to what it sends there; the key is never shown.
 */
export const OutsideEndpoint = Type.Object(
  {
    name: Type.String(),
    url: Type.String({ description: "The server's base URL; /v1 requests go to <url>/v1/…." }),
    models: Type.Array(Type.String(), { description: "The models /v1 routes there: those given at add, else the server's GET /v1/models (read again on each health check)." }),
    modelsGiven: Type.Boolean({ description: "true: `models` was given at add and is not read from the server." }),
    hasKey: Type.Boolean({ description: "An API key is kept for it (stored apart, never shown)." }),
    status: Type.Union([Type.Literal("HEALTHY"), Type.Literal("UNHEALTHY")]),
    reason: Type.Union([Type.String(), Type.Null()], { description: "Why it is UNHEALTHY." }),
    checkedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    createdAt: Type.String({ format: "date-time" }),
  },
  { $id: "OutsideEndpoint" },
);
export type OutsideEndpoint = Static<typeof OutsideEndpoint>;

export const CreateEndpointRequest = Type.Object(
  {
    name: Type.String({ pattern: ENDPOINT_NAME_PATTERN, description: "Unique; its models' owner in /v1/models." }),
    url: Type.String({ minLength: 1, maxLength: 2048, description: "http(s) base URL of an OpenAI-compatible server, with or without /v1; no credentials in it." }),
    apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "The server's API key, sent by the gateway as Authorization: Bearer; stored 0600 and never shown again." })),
    models: Type.Optional(Type.Array(OutsideModelId, { minItems: 1, maxItems: 256, description: "The models to route there; when left out, read from the server's GET /v1/models." })),
  },
  { $id: "CreateEndpointRequest", additionalProperties: false, examples: [{ name: "dept-vllm", url: "https://llm.example.edu", apiKey: "sk-…", models: ["meta-llama/Llama-3.1-8B-Instruct"] }] },
);
export type CreateEndpointRequest = Static<typeof CreateEndpointRequest>;

export const EndpointParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 128, description: "The endpoint's name." }) });
