import { Elysia } from "elysia";
import { checkBearer } from "./bearer-auth";
import type { EngineState } from "./engine-state";
import { openAiErrorHandler } from "./error-handler";
import { MetricsRegistry, requestMetrics } from "./metrics";
import { OpenAiError } from "./openai-error";
import type { RequestQueue } from "./request-queue";

export interface RuntimeServerOptions {
  apiKey?: string;
  engine: EngineState;
  queue: RequestQueue;
  metrics: MetricsRegistry;
  /** Paths that need the API key and a loaded model. */
  isInferencePath: (path: string) => boolean;
}

/**
 * What every inference request passes first: the API key (401), then a loaded model (503 while
 * it loads). Returns the response to send, or undefined when the request may go on.
 */
export function inferenceGate(options: Pick<RuntimeServerOptions, "apiKey" | "engine">): (request: Request) => Response | undefined {
  return (request) => {
    const denied = checkBearer(request, options.apiKey);
    if (denied) return denied;
    if (!options.engine.ready) {
      return new OpenAiError(503, "The model is not loaded yet; retry when GET /health answers 200.", "server_error", "model_loading").toResponse({
        "retry-after": "1",
      });
    }
  };
}

/**
 * The parts every runtime shares: the OpenAI-style error handler, bearer auth and the "still
 * loading" 503 on inference paths, `GET /health` and `GET /metrics`. Add the inference routes to it.
 */
export function createRuntimeApp(options: RuntimeServerOptions) {
  const gate = inferenceGate(options);
  // normalize: false: a body is validated as it came, not copied without the fields its schema does not
  // name (Elysia's default). The routes read only their own fields, so the answer is the same, and the
  // copy cost ~0.05 ms before a first token (bench/figures/runtime.ts).
  return new Elysia({ normalize: false })
    .use(openAiErrorHandler)
    .onRequest(({ request }) => {
      const path = new URL(request.url).pathname;
      if (options.isInferencePath(path)) return gate(request);
    })
    .get("/health", ({ set }) => {
      const { status, body } = options.engine.health();
      set.status = status;
      return body;
    })
    .get("/metrics", () => new Response(options.metrics.render(), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } }));
}

export interface ListeningRuntime {
  url: string;
  stop: () => Promise<void>;
}

/** Routes Bun.serve answers itself, by path and method, before `app` (see direct-route.ts). */
export type DirectRoutes = Record<string, { POST: (request: Request) => Promise<Response> }>;

/**
 * Serves `app` with Bun.serve, counting every answer in the request metrics; SIGTERM/SIGINT stop it
 * and exit. `direct` routes are answered by Bun's own router (other methods on their paths reach `app`).
 */
export function serveRuntime(
  app: { handle: (request: Request) => Promise<Response> },
  registry: MetricsRegistry,
  queue: RequestQueue,
  knownPaths: string[],
  host: string,
  port: number,
  direct: DirectRoutes = {},
): ListeningRuntime {
  const metrics = requestMetrics(registry, () => queue.waiting);
  const counted = (route: string, started: number, response: Response) => {
    metrics.requests.inc({ route, status: String(response.status) });
    metrics.latency.observe((performance.now() - started) / 1000);
    return response;
  };
  const routes = Object.fromEntries(
    Object.entries(direct).map(([path, { POST }]) => [path, { POST: async (request: Request) => counted(path, performance.now(), await POST(request)) }]),
  );
  const server = Bun.serve({
    hostname: host,
    port,
    // Generations and transcriptions can take longer than Bun's default 10 s idle timeout.
    idleTimeout: 0,
    maxRequestBodySize: 512 * 1024 * 1024,
    routes,
    async fetch(request) {
      const started = performance.now();
      const path = new URL(request.url).pathname;
      return counted(knownPaths.includes(path) ? path : "other", started, await app.handle(request));
    },
  });
  const stop = () => server.stop(true);
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void stop().finally(() => process.exit(0)));
  return { url: `http://${host.includes(":") ? `[${host}]` : host}:${server.port}`, stop };
}
