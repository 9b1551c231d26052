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
 * The parts every runtime shares: the OpenAI-style error handler, bearer auth and the "still
 * loading" 503 on inference paths, `GET /health` and `GET /metrics`. Add the inference routes to it.
 */
export function createRuntimeApp(options: RuntimeServerOptions) {
  // normalize: false: a body is validated as it came, not copied without the fields its schema does not
  // name (Elysia's default). The routes read only their own fields, so the answer is the same, and the
  // copy cost ~0.05 ms before a first token (bench/figures/runtime.ts).
  return new Elysia({ normalize: false })
    .use(openAiErrorHandler)
    .onRequest(({ request }) => {
      const path = new URL(request.url).pathname;
      if (!options.isInferencePath(path)) return;
      const denied = checkBearer(request, options.apiKey);
      if (denied) return denied;
      if (!options.engine.ready) {
        return new OpenAiError(503, "The model is not loaded yet; retry when GET /health answers 200.", "server_error", "model_loading").toResponse({
          "retry-after": "1",
        });
      }
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

/** Serves `app` with Bun.serve, counting every answer in the request metrics; SIGTERM/SIGINT stop it and exit. */
export function serveRuntime(
  app: { handle: (request: Request) => Promise<Response> },
  registry: MetricsRegistry,
  queue: RequestQueue,
  knownPaths: string[],
  host: string,
  port: number,
): ListeningRuntime {
  const metrics = requestMetrics(registry, () => queue.waiting);
  const server = Bun.serve({
    hostname: host,
    port,
    // Generations and transcriptions can take longer than Bun's default 10 s idle timeout.
    idleTimeout: 0,
    maxRequestBodySize: 512 * 1024 * 1024,
    async fetch(request) {
      const started = performance.now();
      const path = new URL(request.url).pathname;
      const response = await app.handle(request);
      metrics.requests.inc({ route: knownPaths.includes(path) ? path : "other", status: String(response.status) });
      metrics.latency.observe((performance.now() - started) / 1000);
      return response;
    },
  });
  const stop = () => server.stop(true);
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void stop().finally(() => process.exit(0)));
  return { url: `http://${host.includes(":") ? `[${host}]` : host}:${server.port}`, stop };
}
