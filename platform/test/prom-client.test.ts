/** @svc/platform/metrics: prom-client's classes without its index (push gateway, cluster, default metrics), working as its index's. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { Counter, Histogram, Registry } from "@svc/platform/metrics";

test("a registry of a counter and a histogram writes Prometheus text", async () => {
  const registry = new Registry();
  const requests = new Counter({ name: "t_requests_total", help: "Requests.", labelNames: ["route"], registers: [registry] });
  const seconds = new Histogram({ name: "t_seconds", help: "Seconds.", buckets: [0.1, 1], registers: [registry] });
  requests.inc({ route: "/v1" }, 2);
  seconds.observe(0.5);
  const text = await registry.metrics();
  expect(text).toContain('t_requests_total{route="/v1"} 2');
  expect(text).toContain('t_seconds_bucket{le="0.1"} 0');
  expect(text).toContain('t_seconds_bucket{le="1"} 1');
  expect(registry.contentType).toContain("text/plain");
});

test("loading it does not load prom-client's index, push gateway or default metrics", () => {
  const script = `await import("@svc/platform/metrics"); console.log(JSON.stringify(Object.keys(require.cache).filter((path) => path.includes("prom-client")).map((path) => path.slice(path.indexOf("prom-client")))));`;
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: join(import.meta.dir, ".."), stdout: "pipe", stderr: "pipe" });
  expect(run.stderr.toString()).toBe("");
  const loaded = JSON.parse(run.stdout.toString()) as string[];
  expect(loaded).toContain("prom-client/lib/registry.js");
  expect(loaded.filter((path) => /prom-client\/(index|lib\/(pushgateway|defaultMetrics|cluster))\.js$/.test(path))).toEqual([]);
});
