import { expect, test } from "bun:test";
import { Counter, Gauge, Histogram, MetricsRegistry } from "../src/metrics";

test("metrics render in the Prometheus text format", () => {
  const registry = new MetricsRegistry();
  const requests = registry.add(new Counter("x_requests_total", "Requests."));
  const latency = registry.add(new Histogram("x_seconds", "Latency.", [0.1, 1]));
  registry.add(new Gauge("x_waiting", "Waiting.", () => 3));
  requests.inc({ route: "/a", status: "200" });
  requests.inc({ route: "/a", status: "200" }, 2);
  requests.inc({ route: 'we"ird', status: "500" });
  latency.observe(0.05);
  latency.observe(0.5);
  latency.observe(5);
  expect(registry.render()).toBe(
    [
      "# HELP x_requests_total Requests.",
      "# TYPE x_requests_total counter",
      'x_requests_total{route="/a",status="200"} 3',
      'x_requests_total{route="we\\"ird",status="500"} 1',
      "# HELP x_seconds Latency.",
      "# TYPE x_seconds histogram",
      'x_seconds_bucket{le="0.1"} 1',
      'x_seconds_bucket{le="1"} 2',
      'x_seconds_bucket{le="+Inf"} 3',
      "x_seconds_sum 5.55",
      "x_seconds_count 3",
      "# HELP x_waiting Waiting.",
      "# TYPE x_waiting gauge",
      "x_waiting 3",
      "",
    ].join("\n"),
  );
});
