/** The gateway's /v1 counters, summed per request and set when scraped: the text a scrape gives, and again after more requests. */
import { expect, test } from "bun:test";
import type { InternalClient } from "@svc/platform";
import { GatewayMetrics, NOT_SERVED } from "../src/metrics/service";
import type { V1Outcome } from "../src/openai/outcome";
import { ReplicaChooser } from "../src/openai/replica-choice";

const outcome = (partial: Partial<V1Outcome> = {}): V1Outcome => ({
  at: new Date(),
  caller: { kind: "token" },
  endpoint: "/v1/chat/completions",
  model: "owner/model",
  modelServed: true,
  serviceId: "svc-1",
  serviceName: "web-1",
  status: 200,
  end: "complete",
  latencyMs: 12,
  usage: { promptTokens: 9, completionTokens: 2 },
  ...partial,
});

const series = (text: string, name: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`))
    .sort();

test("requests, errors, streams and tokens are counted per label set, and a second scrape says the same", async () => {
  const metrics = new GatewayMetrics(null as unknown as InternalClient, new ReplicaChooser());
  metrics.observe(outcome());
  metrics.observe(outcome({ streamEnd: "record", usage: { promptTokens: 1, completionTokens: 5 } }));
  metrics.observe(outcome({ status: 502, usage: null }));
  metrics.observe(outcome({ model: "made/up", modelServed: false, serviceId: null, serviceName: null, status: 404, usage: null }));
  const text = await metrics.registry.metrics();
  expect(series(text, "svc_v1_requests_total")).toEqual([
    `svc_v1_requests_total{model="${NOT_SERVED}",service="",endpoint="/v1/chat/completions",status="404"} 1`,
    'svc_v1_requests_total{model="owner/model",service="web-1",endpoint="/v1/chat/completions",status="200"} 2',
    'svc_v1_requests_total{model="owner/model",service="web-1",endpoint="/v1/chat/completions",status="502"} 1',
  ]);
  expect(series(text, "svc_v1_errors_total")).toEqual([
    `svc_v1_errors_total{model="${NOT_SERVED}",service="",endpoint="/v1/chat/completions"} 1`,
    'svc_v1_errors_total{model="owner/model",service="web-1",endpoint="/v1/chat/completions"} 1',
  ]);
  expect(series(text, "svc_v1_streams_total")).toEqual(['svc_v1_streams_total{service="web-1",end_from="record"} 1']);
  expect(series(text, "svc_v1_tokens_total")).toEqual([
    'svc_v1_tokens_total{model="owner/model",service="web-1",kind="completion"} 7',
    'svc_v1_tokens_total{model="owner/model",service="web-1",kind="prompt"} 10',
  ]);
  expect(text).toContain('svc_v1_request_duration_seconds_count{model="owner/model",service="web-1"} 3');
  // Scraping again does not add the sums twice; what came since is added.
  expect(series(await metrics.registry.metrics(), "svc_v1_requests_total")).toEqual(series(text, "svc_v1_requests_total"));
  metrics.observe(outcome());
  expect(series(await metrics.registry.metrics(), "svc_v1_requests_total")).toContain('svc_v1_requests_total{model="owner/model",service="web-1",endpoint="/v1/chat/completions",status="200"} 3');
});
