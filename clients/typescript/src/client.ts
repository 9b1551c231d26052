import { ApiError, SvcUnreachableError, type AppInfo, type ErrorBody, type HealthReport, type OpenApiDocument } from "@svc/contracts";
import { ProfilesApi } from "./profiles";
import { ServicesApi } from "./services";
import { BatchesApi } from "./batches";
import { ImagesApi } from "./images";
import { ModelsApi } from "./models";
import { RuntimesApi } from "./runtimes";
import { KeysApi, UsageApi } from "./keys";
import { EndpointsApi } from "./endpoints";
import { DeploymentsApi } from "./deployments";
import { QueuesApi } from "./queues";
import { operationRequest, type OperationAnswer, type OperationInput, type OperationKey } from "./operations";

export interface SvcClientOptions {
  /** e.g. http://localhost:8000 */
  baseUrl: string;
  /** The auth token, needed when the application runs with debug mode off; or what reads it when the first request is sent. */
  token?: string | (() => Promise<string | undefined>);
  fetch?: typeof fetch;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | undefined>;
  /** Error statuses whose body is still the expected result. */
  alsoOk?: number[];
}

/** Typed access to the svc REST API through its gateway. */
export class SvcClient {
  readonly baseUrl: string;
  private token: string | undefined | Promise<string | undefined>;
  private readonly readToken: (() => Promise<string | undefined>) | undefined;
  private readonly fetchImpl: typeof fetch;
  /** Profiles: list, get, create, update, remove. */
  readonly profiles: ProfilesApi;
  /** Inference services: run, list, get, stop, restart, remove, logs. */
  readonly services: ServicesApi;
  /** Batch jobs: run, list, get, stop, resume, remove. */
  readonly batches: BatchesApi;
  /** Runtime images: list, build. */
  readonly images: ImagesApi;
  /** Model registry: list, refresh, downloads. */
  readonly models: ModelsApi;
  /** The svc runtime on slurm profiles' clusters: list, install, remove. */
  readonly runtimes: RuntimesApi;
  /** API keys for /v1: list, create, update, remove. */
  readonly keys: KeysApi;
  /** What /v1 served: the usage report. */
  readonly usage: UsageApi;
  /** Outside OpenAI-compatible servers whose models /v1 serves: list, add, remove. */
  readonly endpoints: EndpointsApi;
  /** Replica sets (svc run --replicas): list, get, scale, stop, remove. */
  readonly deployments: DeploymentsApi;
  /** Requests waiting in the gateway for saturated models (fair share). */
  readonly queues: QueuesApi;

  constructor(options: SvcClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, "");
    if (typeof options.token === "function") this.readToken = options.token;
    else this.token = options.token;
    this.fetchImpl = options.fetch ?? fetch;
    this.profiles = new ProfilesApi(this);
    this.services = new ServicesApi(this);
    this.batches = new BatchesApi(this);
    this.images = new ImagesApi(this);
    this.models = new ModelsApi(this);
    this.runtimes = new RuntimesApi(this);
    this.keys = new KeysApi(this);
    this.usage = new UsageApi(this);
    this.endpoints = new EndpointsApi(this);
    this.deployments = new DeploymentsApi(this);
    this.queues = new QueuesApi(this);
  }

  /** Sends one operation of the API (see `Operations`); returns its answer or throws ApiError / SvcUnreachableError. */
  call<K extends OperationKey>(operation: K, input: OperationInput<K>): Promise<OperationAnswer<K>> {
    const { method, path } = operationRequest(operation, (input as SentParts).params);
    return this.request(method, path, requestOptions(input as SentParts));
  }

  /** Sends one operation and returns the response unread, for streamed answers (e.g. logs). */
  callStream<K extends OperationKey>(operation: K, input: OperationInput<K>): Promise<Response> {
    const { method, path } = operationRequest(operation, (input as SentParts).params);
    return this.stream(method, path, requestOptions(input as SentParts));
  }

  /** Sends one request; returns the parsed JSON body or throws ApiError / SvcUnreachableError. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, options, "application/json");
    const text = await response.text();
    return (text ? safeJson(text) : undefined) as T;
  }

  /** Sends one request and returns the response unread, for streamed bodies (e.g. logs). */
  stream(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    return this.send(method, path, options, "*/*");
  }

  private async send(method: string, path: string, options: RequestOptions, accept: string): Promise<Response> {
    const { body, query, alsoOk = [] } = options;
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    const headers: Record<string, string> = { accept };
    const token = await (this.token ??= this.readToken?.());
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await this.fetchImpl(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      throw error instanceof SvcUnreachableError ? error : new SvcUnreachableError(this.baseUrl, error);
    }
    if (response.ok || alsoOk.includes(response.status)) return response;
    const text = await response.text();
    const error = (text ? safeJson(text) : undefined) as Partial<ErrorBody> | undefined;
    throw new ApiError(
      response.status,
      error?.error ?? `http_${response.status}`,
      error?.message ?? `The application answered ${response.status} ${response.statusText}.`,
      error?.details,
    );
  }

  info(): Promise<AppInfo> {
    return this.call("GET /api/info", {});
  }

  /** The health report; also returned (status `degraded`, HTTP 503) when a service is down. */
  health(): Promise<HealthReport> {
    return this.call("GET /api/health", { alsoOk: [503] });
  }

  /** The OpenAPI 3.1 document of the API, as the application serves it. */
  openApiDocument(): Promise<OpenApiDocument> {
    return this.call("GET /api/openapi.json", {});
  }
}

/** An operation's input as sent, whatever the operation. */
interface SentParts {
  params?: Record<string, string>;
  query?: object;
  body?: unknown;
  alsoOk?: number[];
}

/** Query values as the URL carries them: booleans and numbers as text, absent ones left out. */
function requestOptions(input: SentParts): RequestOptions {
  const query = Object.fromEntries(Object.entries(input.query ?? {}).map(([key, value]) => [key, value === undefined ? undefined : String(value)]));
  return { query, body: input.body, alsoOk: input.alsoOk };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
