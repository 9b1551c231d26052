import { Counter, Gauge, Histogram, Registry } from "@svc/platform/metrics";
import { SERVICE_METRICS_PATH, type QueueReport } from "@svc/contracts";
import type { InternalClient } from "@svc/platform";
import type { ReplicaChooser } from "../openai/replica-choice";
import type { V1Outcome } from "../openai/outcome";
import { CounterTally } from "./tally";

/** The model label of requests for a model nothing serves. */
export const NOT_SERVED = "(not served)";

/**
 * The gateway's Prometheus metrics: /v1 requests, errors, latency and tokens per model and
 * service, requests in flight, how replicas of deployments were chosen, the fair-share queues; /metrics appends orchestrator-svc's (reconcile ticks, services per
 * status and profile).
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  // The counters of /v1 requests are summed here per request and set when scraped (CounterTally).
  private readonly requests = new CounterTally(["model", "service", "endpoint", "status"] as const);
  private readonly errors = new CounterTally(["model", "service", "endpoint"] as const);
  private readonly streams = new CounterTally(["service", "end_from"] as const);
  private readonly tokens = new CounterTally(["model", "service", "kind"] as const);
  private readonly duration: Histogram<"model" | "service">;

  constructor(
    private readonly client: InternalClient,
    chooser: ReplicaChooser,
    queues: () => Pick<QueueReport, "models"> = () => ({ models: [] }),
  ) {
    const balancer = chooser.balancer;
    const tallied = <Name extends string>(name: string, help: string, tally: CounterTally<Name>) =>
      new Counter({
        name,
        help,
        labelNames: tally.labelNames,
        registers: [this.registry],
        collect() {
          tally.setInto(this);
        },
      });
    tallied("svc_v1_requests_total", "Requests through /v1, by model, service, endpoint and status.", this.requests);
    tallied("svc_v1_errors_total", "Requests through /v1 answered with a 4xx or 5xx status, or whose stream broke.", this.errors);
    this.duration = new Histogram({
      name: "svc_v1_request_duration_seconds",
      help: "Time from a /v1 request's arrival to the end of its answer.",
      labelNames: ["model", "service"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [this.registry],
    });
    tallied(
      "svc_v1_streams_total",
      "Streamed answers through /v1, by service and how their end and usage were learned: record (from svc's runtime's records; the stream passed untouched) or read (read on its way).",
      this.streams,
    );
    tallied("svc_v1_tokens_total", "Tokens of /v1 requests (kind: prompt = in, completion = out), from each answer's usage.", this.tokens);
    new Gauge({
      name: "svc_v1_in_flight",
      help: "Requests through /v1 and /proxy/<id> being answered now, by service.",
      labelNames: ["service"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [service, count] of balancer.entries()) this.set({ service }, count);
      },
    });
    // Totals kept by the chooser, set afresh on each scrape (prom-client escapes the label values).
    new Counter({
      name: "svc_v1_routing_total",
      help: "Replicas of deployments chosen by /v1, by deployment and decision: prefix (the prompt prefix's replica), prefix_overflow (the next one, the prefix's was too busy), least_busy.",
      labelNames: ["deployment", "decision"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { deployment, decision, count } of chooser.decisions.values()) this.inc({ deployment, decision }, count);
      },
    });
    new Counter({
      name: "svc_v1_routed_requests_total",
      help: "Requests /v1 sent to each replica of a deployment.",
      labelNames: ["deployment", "service"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { deployment, service, count } of chooser.routed.values()) this.inc({ deployment, service }, count);
      },
    });
    // The fair-share queues, read afresh on each scrape (one report for the three).
    let scraped: Pick<QueueReport, "models"> | undefined;
    const report = () => (scraped ??= queues());
    new Gauge({
      name: "svc_v1_queue_waiting",
      help: "Requests waiting in the gateway's fair-share queue for a saturated model, by model.",
      labelNames: ["model"],
      registers: [this.registry],
      collect() {
        scraped = undefined;
        this.reset();
        for (const queue of report().models) this.set({ model: queue.model }, queue.waiting);
      },
    });
    new Gauge({
      name: "svc_v1_queue_waiting_by_key",
      help: "Requests waiting in the fair-share queue by model, key (its name, svc-token or anonymous) and tier.",
      labelNames: ["model", "key", "tier"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const queue of report().models) for (const { key, tier, waiting } of queue.keys) this.set({ model: queue.model, key, tier }, waiting);
      },
    });
    new Counter({
      name: "svc_v1_queue_refused_total",
      help: "Requests the fair-share queue refused with 429, by model and reason: timeout (waited the queue time limit) or full (the key had the most requests waiting).",
      labelNames: ["model", "reason"],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const queue of report().models) {
          this.inc({ model: queue.model, reason: "timeout" }, queue.refused.timeout);
          this.inc({ model: queue.model, reason: "full" }, queue.refused.full);
        }
      },
    });
  }

  observe(outcome: V1Outcome): void {
    // Only served repo ids become labels: a caller's made-up names would add a series each.
    const model = outcome.modelServed ? outcome.model! : outcome.model === null ? "" : NOT_SERVED;
    const service = outcome.serviceName ?? "";
    this.requests.add(1, model, service, outcome.endpoint, String(outcome.status));
    if (outcome.status >= 400 || outcome.end === "error") this.errors.add(1, model, service, outcome.endpoint);
    this.duration.observe({ model, service }, outcome.latencyMs / 1000);
    if (outcome.streamEnd) this.streams.add(1, service, outcome.streamEnd);
    if (outcome.usage) {
      this.tokens.add(outcome.usage.promptTokens, model, service, "prompt");
      this.tokens.add(outcome.usage.completionTokens, model, service, "completion");
    }
  }

  /** The text format: the gateway's metrics, then orchestrator-svc's (left out, with a comment, when it does not answer). */
  async text(): Promise<string> {
    const own = await this.registry.metrics();
    let theirs: string;
    try {
      const response = await this.client.serviceRoute("orchestrator-svc", SERVICE_METRICS_PATH, 5000);
      theirs = response.ok ? await response.text() : `# orchestrator-svc answered ${response.status}\n`;
    } catch {
      theirs = "# orchestrator-svc is not answering\n";
    }
    return `${own}\n${theirs}`;
  }
}
