export * from "./config";
export { jsonError } from "./http/api-error";
/** The one error type lives in contracts; services get it here too, with the rest of the service shell. */
export { ApiError, badRequest, conflict, notFound } from "@svc/contracts";
export { errorHandler } from "./http/error-handler";
export { operation, NO_CONTENT, textAnswer, type ErrorStatus, type OperationSpec } from "./openapi/operation";
export { openApiPart, documentPath, STATUS_DESCRIPTIONS, type OpenApiPart } from "./openapi/document-part";
export type { JsonSchema } from "./openapi/json-schema";
export { secretsEqual } from "./security/constant-time";
export { randomSecret } from "./security/random-secret";
export { createServiceApp } from "./service/create-service-app";
export { runService, type ServiceContext } from "./service/run-service";
export { readServiceEnv, type ServiceEnv } from "./service/service-env";
export { exitOnConfigError } from "./service/exit-on-config-error";
export { listenUntilSignal } from "./service/listen";
export { readUpstreams, upstreamOf, type Upstreams } from "./service/upstreams";
export { internalClient, type InternalClient } from "./service/internal-client";
export { readInternalSecret } from "./service/internal-secret";
