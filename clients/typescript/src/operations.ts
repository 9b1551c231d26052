import type {
  ApiKey,
  AppInfo,
  BatchDetails,
  BatchRecord,
  BatchResumeRequest,
  BatchRunRequest,
  BatchRunResponse,
  BatchStatus,
  ClusterGpus,
  DeploymentDetails,
  DeploymentRecord,
  CreatedKey,
  CreateEndpointRequest,
  CreateKeyRequest,
  DownloadRequest,
  DownloadTask,
  HealthReport,
  ImageBuild,
  ImageBuildRequest,
  Model,
  ModelQuery,
  OpenApiDocument,
  OutsideEndpoint,
  Profile,
  ProfileChange,
  ProfileCreate,
  ProfileUpdate,
  RefreshReport,
  RefreshRequest,
  RunRequestBody,
  RunResponse,
  ScaleRequest,
  RuntimeImage,
  RuntimeInstall,
  RuntimeInstallRequest,
  RuntimeInstallState,
  RuntimeList,
  FoundEngineVersion,
  RuntimeRemoval,
  ServiceDetails,
  ActivityReport,
  ServiceRecord,
  ServiceStatus,
  UpdateKeyRequest,
  UsageQuery,
  UsageReport,
  QueueQuery,
  QueueReport,
} from "@svc/contracts";

/**
 * Every operation of the REST API, keyed by method and path as the OpenAPI document writes them:
 * its path parameters, query, body and success answer (a text answer is `string`, no content
 * `void`). The client's methods send only these (`SvcClient.call`), and a test type-checks this
 * list against types generated from the served document (clients/typescript/test/document-types.test.ts):
 * an operation the document has and the client lacks, or a type that differs, fails it.
 */
export interface Operations {
  "GET /api/info": { response: AppInfo };
  "GET /api/health": { response: HealthReport };
  "GET /api/openapi.json": { response: OpenApiDocument };
  "GET /api/profiles": { response: Profile[] };
  "POST /api/profiles": { body: ProfileCreate; response: ProfileChange };
  "GET /api/profiles/{name}": { params: { name: string }; response: Profile };
  "PUT /api/profiles/{name}": { params: { name: string }; body: ProfileUpdate; response: ProfileChange };
  "DELETE /api/profiles/{name}": { params: { name: string }; response: void };
  "GET /api/profiles/{name}/gpus": { params: { name: string }; query: { refresh?: boolean }; response: ClusterGpus };
  "GET /api/models": { query: ModelQuery; response: Model[] };
  "POST /api/models/refresh": { body: RefreshRequest; response: RefreshReport };
  "POST /api/models/downloads": { body: DownloadRequest; response: DownloadTask };
  "GET /api/models/downloads": { response: DownloadTask[] };
  "GET /api/models/downloads/{id}": { params: { id: string }; response: DownloadTask };
  "GET /api/services": { query: ServiceListQuery; response: ServiceRecord[] };
  "POST /api/services": { body: RunRequestBody; response: RunResponse };
  "GET /api/services/{ref}": { params: { ref: string }; response: ServiceDetails };
  "DELETE /api/services/{ref}": { params: { ref: string }; query: { force?: boolean }; response: ServiceRecord };
  "POST /api/services/{ref}/stop": { params: { ref: string }; response: ServiceRecord };
  "POST /api/services/{ref}/restart": { params: { ref: string }; query: { onDemand?: boolean }; response: ServiceRecord };
  "POST /api/services/{ref}/adapters": { params: { ref: string }; body: { adapter: string }; response: ServiceRecord };
  "DELETE /api/services/{ref}/adapters": { params: { ref: string }; query: { adapter: string }; response: ServiceRecord };
  "POST /api/services/activity": { body: ActivityReport; response: { recorded: number } };
  "GET /api/services/{ref}/logs": { params: { ref: string }; query: { follow?: boolean; tail?: number }; response: string };
  "GET /api/deployments": { query: { all?: boolean }; response: DeploymentRecord[] };
  "GET /api/deployments/{ref}": { params: { ref: string }; response: DeploymentDetails };
  "PATCH /api/deployments/{ref}": { params: { ref: string }; body: ScaleRequest; response: DeploymentRecord };
  "POST /api/deployments/{ref}/stop": { params: { ref: string }; response: DeploymentRecord };
  "POST /api/deployments/{ref}/adapters": { params: { ref: string }; body: { adapter: string }; response: DeploymentRecord };
  "DELETE /api/deployments/{ref}/adapters": { params: { ref: string }; query: { adapter: string }; response: DeploymentRecord };
  "DELETE /api/deployments/{ref}": { params: { ref: string }; query: { force?: boolean }; response: DeploymentRecord };
  "GET /api/batches": { query: { status?: BatchStatus; all?: boolean }; response: BatchRecord[] };
  "POST /api/batches": { body: BatchRunRequest; response: BatchRunResponse };
  "GET /api/batches/{ref}": { params: { ref: string }; response: BatchDetails };
  "DELETE /api/batches/{ref}": { params: { ref: string }; query: { force?: boolean }; response: BatchRecord };
  "GET /api/batches/{ref}/results": { params: { ref: string }; response: string };
  "POST /api/batches/{ref}/stop": { params: { ref: string }; response: BatchRecord };
  "POST /api/batches/{ref}/resume": { params: { ref: string }; body: BatchResumeRequest; response: BatchRecord };
  "GET /api/images": { response: RuntimeImage[] };
  "GET /api/images/builds": { response: ImageBuild[] };
  "POST /api/images/build": { body: ImageBuildRequest; response: RuntimeImage[] };
  "GET /api/runtimes": { query: { profile?: string }; response: RuntimeList };
  "GET /api/runtimes/engines": { query: { profile?: string }; response: FoundEngineVersion[] };
  "DELETE /api/runtimes": { query: { profile?: string; version?: string }; response: RuntimeRemoval };
  "POST /api/runtimes/installs": { body: RuntimeInstallRequest; response: RuntimeInstall };
  "GET /api/runtimes/installs": { query: { profile?: string; state?: RuntimeInstallState }; response: RuntimeInstall[] };
  "GET /api/runtimes/installs/{id}": { params: { id: string }; response: RuntimeInstall };
  "GET /api/keys": { response: ApiKey[] };
  "POST /api/keys": { body: CreateKeyRequest; response: CreatedKey };
  "PATCH /api/keys/{ref}": { params: { ref: string }; body: UpdateKeyRequest; response: ApiKey };
  "DELETE /api/keys/{ref}": { params: { ref: string }; response: ApiKey };
  "GET /api/usage": { query: UsageQuery; response: UsageReport };
  "GET /api/queues": { query: QueueQuery; response: QueueReport };
  "GET /api/endpoints": { response: OutsideEndpoint[] };
  "POST /api/endpoints": { body: CreateEndpointRequest; response: OutsideEndpoint };
  "DELETE /api/endpoints/{name}": { params: { name: string }; response: OutsideEndpoint };
}

/** The query of GET /api/services (`svc ls`). */
export interface ServiceListQuery {
  status?: ServiceStatus;
  id?: string;
  /** The whole history, not only live services and those that ended in the last 24 hours. */
  all?: boolean;
  /** Services per page (default 100, at most 1000). */
  limit?: number;
  /** Where the previous page ended (its `X-Next-Cursor`). */
  cursor?: string;
}

export type OperationKey = keyof Operations;

type Part<K extends OperationKey, F extends string> = F extends keyof Operations[K] ? Operations[K][F] : never;

/** What one call sends: the operation's path parameters, query and body. */
export type OperationInput<K extends OperationKey> = ([Part<K, "params">] extends [never] ? {} : { params: Part<K, "params"> }) &
  ([Part<K, "query">] extends [never] ? {} : { query?: Part<K, "query"> }) &
  ([Part<K, "body">] extends [never] ? {} : { body: Part<K, "body"> }) & {
    /** Error statuses whose body is still the expected answer (GET /api/health's 503). */
    alsoOk?: number[];
  };

export type OperationAnswer<K extends OperationKey> = Operations[K]["response"];

/** `GET /api/profiles/{name}` with `{ name: "a b" }` → the method and `/api/profiles/a%20b`. */
export function operationRequest(operation: OperationKey, params: Record<string, string> = {}): { method: string; path: string } {
  const [method, template] = operation.split(" ");
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new TypeError(`${operation} needs the path parameter ${name}.`);
    return encodeURIComponent(params[name]);
  });
  return { method, path };
}
