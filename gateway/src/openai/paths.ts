export const V1_PREFIX = "/v1/";

export const isV1Path = (path: string) => path === "/v1" || path.startsWith(V1_PREFIX);

/** The OpenAI endpoints /v1 routes to a service by the request's `model`. */
export const ROUTED_ENDPOINTS = new Set(["/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/v1/audio/transcriptions"]);

/** Endpoints whose streams can carry a final usage chunk (`stream_options.include_usage`). */
export const USAGE_STREAM_ENDPOINTS = new Set(["/v1/chat/completions", "/v1/completions"]);

/** Largest body /v1 reads (it needs `model` before it can choose a service): an audio upload fits, as at OpenAI (25 MB). */
export const V1_BODY_LIMIT = 64 * 1024 * 1024;
