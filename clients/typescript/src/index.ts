export { SvcClient, type SvcClientOptions, type RequestOptions } from "./client";
/** The errors the client throws, defined once in contracts. */
export { ApiError, SvcUnreachableError } from "@svc/contracts";
export { clientFromEnvironment, clientFromSettings, localToken } from "./from-environment";
export { ProfilesApi } from "./profiles";
export { ServicesApi } from "./services";
export { BatchesApi } from "./batches";
export { ModelsApi } from "./models";
export { ImagesApi } from "./images";
export { RuntimesApi } from "./runtimes";
export { KeysApi, UsageApi } from "./keys";
export { EndpointsApi } from "./endpoints";
export { DeploymentsApi } from "./deployments";
export { QueuesApi } from "./queues";
export { operationRequest, type OperationAnswer, type OperationInput, type OperationKey, type Operations, type ServiceListQuery } from "./operations";
