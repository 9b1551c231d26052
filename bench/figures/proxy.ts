/**
 * Figure 3: gateway proxy. Small-request throughput to one text-generation service (tiny model, Docker)
 * directly, through the gateway's /proxy/<id> and /v1, and through Debian's nginx (`proxy_pass` with
 * upstream keep-alive, one worker like the gateway's one process; installed here for the bench only).
 * Each path's ratio to direct; the goal is the gateway's ratio ≥ nginx's. The gateway runs as users
 * run it, with auth on: /proxy requests carry the svc token, /v1 requests a per-person API key (every
 * side gets the same headers). For scale, the floor of
 * any Bun proxy: a bare Bun.serve that passes each request on with fetch (no checks at all). wrk
 * sends the load; the sides alternate in short rounds so load from other work on the machine falls
 * on all of them, and each proxy's own CPU time per request is shown beside its rate (less swayed
 * by other work than the rate); for /proxy, its ratio to the bare Bun proxy's is a row of its own.
 */
import { randomBytes } from "node:crypto";
import { startAppWithTinyModels, TEXT_MODEL } from "@svc/testing";
import { median, throughput, type Row } from "../lib/measure";
import { startNginx } from "../lib/nginx";
import { bunServer, cpuMs, listenerPids } from "../lib/processes";

const ROUNDS = 5;
const SECONDS = 2;

/** The least a proxy on Bun can do: Bun.serve passing each request on with fetch, nothing else. */
function startBareBunProxy(backendPort: number) {
  return bunServer(
    (port) => `Bun.serve({ hostname: "127.0.0.1", port: ${port}, fetch: (r) => { const u = new URL(r.url); return fetch("http://127.0.0.1:${backendPort}" + u.pathname + u.search, { method: r.method, headers: r.headers, body: r.body }); } })`,
    async (url) => (await fetch(`${url}/health`)).ok,
  );
}

/** One side's rounds: requests/s (wrk's) and the CPU its own processes used per request. */
interface Side {
  rates: number[];
  cpuPerRequest: number[];
}

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

export async function proxy(): Promise<Row[]> {
  const token = randomBytes(24).toString("hex");
  const tiny = await startAppWithTinyModels({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: token } });
  try {
    const id = await tiny.serving(["text-generation", TEXT_MODEL, "--name", "bench-proxy"]);
    const { key } = await tiny.client.keys.create({ name: "bench-proxy" });
    const direct = (await tiny.client.services.get(id)).url!;
    const port = Number(new URL(direct).port);
    const nginx = await startNginx([port]);
    const bun = await startBareBunProxy(port);
    try {
      const embed = { method: "POST", body: JSON.stringify({ model: TEXT_MODEL, input: "hi" }) };
      const proxied = { headers: { "x-svc-token": token } };
      const keyed = { headers: { authorization: `Bearer ${key}` } };
      const cases = [
        { name: "GET /v1/models", path: "/v1/models", init: proxied, gateway: `${tiny.app.url}/proxy/${id}`, label: "/proxy" },
        { name: "POST /v1/embeddings", path: "/v1/embeddings", init: { ...embed, ...proxied }, gateway: `${tiny.app.url}/proxy/${id}`, label: "/proxy" },
        { name: "POST /v1/embeddings", path: "/v1/embeddings", init: { ...embed, ...keyed }, gateway: tiny.app.url, label: "/v1" },
      ];
      const rows: Row[] = [];
      for (const c of cases) {
        const bases = { direct, gateway: c.gateway, nginx: nginx.url, bun: bun.url };
        // Whose CPU each side costs: the proxy's own process(es); direct has none in between.
        const proxies = { direct: [], gateway: listenerPids(Number(new URL(tiny.app.url).port)), nginx: listenerPids(Number(new URL(nginx.url).port)), bun: listenerPids(Number(new URL(bun.url).port)) };
        const sides = Object.fromEntries(Object.keys(bases).map((name) => [name, { rates: [], cpuPerRequest: [] } as Side])) as Record<keyof typeof bases, Side>;
        for (const base of Object.values(bases)) throughput(`${base}${c.path}`, 1, 16, c.init); // warm-up
        for (let round = 0; round < ROUNDS; round++) {
          for (const name of Object.keys(bases) as Array<keyof typeof bases>) {
            const before = cpuMs(proxies[name]);
            const load = throughput(`${bases[name]}${c.path}`, SECONDS, 16, c.init);
            sides[name].rates.push(load.rate);
            sides[name].cpuPerRequest.push((cpuMs(proxies[name]) - before) / load.requests);
          }
        }
        const [d, g, n, b] = [median(sides.direct.rates), median(sides.gateway.rates), median(sides.nginx.rates), median(sides.bun.rates)];
        const [gatewayRatio, nginxRatio] = [g / d, n / d];
        const cpuMedian = (name: keyof typeof bases) => median(sides[name].cpuPerRequest);
        const cpu = (name: keyof typeof bases) => us(cpuMedian(name));
        rows.push({
          figure: `gateway proxy: ${c.label} ${c.name}, req/s ÷ direct`,
          svc: `${g.toFixed(0)}/s (${gatewayRatio.toFixed(2)} of direct ${d.toFixed(0)}/s; ${cpu("gateway")} CPU per request)`,
          comparison: `nginx ${n.toFixed(0)}/s (${nginxRatio.toFixed(2)}; ${cpu("nginx")}); bare Bun proxy ${b.toFixed(0)}/s (${(b / d).toFixed(2)}; ${cpu("bun")})`,
          ratio: gatewayRatio / nginxRatio,
          goal: "≥ 1.00",
          met: gatewayRatio >= nginxRatio,
        });
        // /proxy's own work per request (guard, auth, lookup, header changes) over the least any Bun proxy does
        // (issue 28); /v1 also reads each body for its model and records usage, which no bare proxy does.
        const cpuRatio = cpuMedian("gateway") / cpuMedian("bun");
        if (c.label === "/proxy") rows.push({
          figure: `gateway proxy: ${c.label} ${c.name}, CPU per request ÷ bare Bun proxy's`,
          svc: cpu("gateway"),
          comparison: `bare Bun proxy ${cpu("bun")}`,
          ratio: cpuRatio,
          goal: "≤ 1.25",
          met: cpuRatio <= 1.25,
        });
      }
      return rows;
    } finally {
      await nginx.stop();
      await bun.stop();
    }
  } finally {
    await tiny.cleanup();
  }
}
