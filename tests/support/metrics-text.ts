// @ts-expect-error the parser ships no types
import parsePrometheusTextFormat from "parse-prometheus-text-format";

/** One sample: its labels and value. */
export interface MetricSample {
  labels: Record<string, string>;
  value: number;
}

export interface ParsedMetric {
  name: string;
  /** COUNTER, GAUGE, HISTOGRAM, …; a histogram's series are also given as `<name>_count`, `_sum` and `_bucket`. */
  type: string;
  samples: MetricSample[];
}

type Family = { name: string; type: string; metrics: Array<{ value?: string; labels?: Record<string, string> }> };

/**
 * Parses Prometheus' text format with a parser of its own (not svc's code), by metric name. That
 * parser folds a histogram's series into one object and loses their labels when there are any, so
 * histograms are read a second time as untyped series (`<name>_count{…}`, `_sum`, `_bucket`).
 */
export function parseMetricsText(text: string): Map<string, ParsedMetric> {
  const typed = parsePrometheusTextFormat(text) as Family[];
  const histograms = new Set(typed.filter((family) => family.type === "HISTOGRAM").map((family) => family.name));
  const untyped = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped")) as Family[];
  const metrics = new Map<string, ParsedMetric>();
  for (const family of typed) if (!histograms.has(family.name)) metrics.set(family.name, toMetric(family, family.type));
  for (const family of untyped) {
    const histogram = [...histograms].find((name) => family.name.startsWith(`${name}_`) || family.name === name);
    // Each label set of a histogram comes back as families of its own: they are merged here.
    if (histogram) metrics.set(family.name, { ...toMetric(family, "HISTOGRAM"), samples: [...(metrics.get(family.name)?.samples ?? []), ...toMetric(family, "HISTOGRAM").samples] });
  }
  for (const name of histograms) metrics.set(name, { name, type: "HISTOGRAM", samples: metrics.get(`${name}_count`)?.samples ?? [] });
  return metrics;
}

const toMetric = (family: Family, type: string): ParsedMetric => ({
  name: family.name,
  type,
  samples: family.metrics.map((metric) => ({ labels: metric.labels ?? {}, value: Number(metric.value ?? 0) })),
});

/** The sum of a metric's samples whose labels include `match` (for a histogram: its counts). */
export function metricSum(metrics: Map<string, ParsedMetric>, name: string, match: Record<string, string> = {}): number {
  return (metrics.get(name)?.samples ?? []).filter((sample) => Object.entries(match).every(([key, value]) => sample.labels[key] === value)).reduce((total, sample) => total + sample.value, 0);
}
