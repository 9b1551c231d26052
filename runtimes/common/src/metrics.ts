/** A minimal Prometheus registry: labelled counters, gauges read at scrape time, and histograms. */
type Labels = Record<string, string>;

const labelText = (labels: Labels) => {
  const entries = Object.entries(labels);
  if (entries.length === 0) return "";
  return `{${entries.map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`).join(",")}}`;
};

export class Counter {
  private values = new Map<string, { labels: Labels; value: number }>();
  constructor(readonly name: string, readonly help: string) {}

  inc(labels: Labels = {}, amount = 1): void {
    const key = labelText(labels);
    const entry = this.values.get(key) ?? { labels, value: 0 };
    entry.value += amount;
    this.values.set(key, entry);
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    if (this.values.size === 0) lines.push(`${this.name} 0`);
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join("\n");
  }
}

export class Gauge {
  constructor(readonly name: string, readonly help: string, private read: () => number) {}

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`].join("\n");
  }
}

export class Histogram {
  private counts: number[];
  private sum = 0;
  private count = 0;
  constructor(readonly name: string, readonly help: string, private buckets: number[]) {
    this.counts = buckets.map(() => 0);
  }

  observe(value: number): void {
    this.sum += value;
    this.count++;
    this.buckets.forEach((bound, i) => {
      if (value <= bound) this.counts[i]++;
    });
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    this.buckets.forEach((bound, i) => lines.push(`${this.name}_bucket{le="${bound}"} ${this.counts[i]}`));
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`, `${this.name}_sum ${this.sum}`, `${this.name}_count ${this.count}`);
    return lines.join("\n");
  }
}

export class MetricsRegistry {
  private metrics: Array<Counter | Gauge | Histogram> = [];

  add<M extends Counter | Gauge | Histogram>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }

  render(): string {
    return `${this.metrics.map((metric) => metric.render()).join("\n")}\n`;
  }
}

/** The metrics every runtime exposes: requests by route and status, latency, queue length. */
export function requestMetrics(registry: MetricsRegistry, waiting: () => number) {
  return {
    requests: registry.add(new Counter("svc_requests_total", "HTTP requests answered, by route and status.")),
    latency: registry.add(
      new Histogram("svc_request_duration_seconds", "Time from receiving a request to its last byte.", [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]),
    ),
    waiting: registry.add(new Gauge("svc_requests_waiting", "Requests waiting for the engine.", waiting)),
  };
}
