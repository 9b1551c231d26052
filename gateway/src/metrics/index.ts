import { Elysia } from "elysia";
import { METRICS_PATH } from "../auth/service";
import type { GatewayMetrics } from "./service";

/** GET /metrics: Prometheus' text format (needs the token when debug is off, like every route). */
export function metricsController(metrics: GatewayMetrics) {
  return new Elysia({ name: "gateway/metrics" }).get(
    METRICS_PATH,
    async () => new Response(await metrics.text(), { headers: { "content-type": metrics.registry.contentType } }),
    { detail: { hide: true } },
  );
}
