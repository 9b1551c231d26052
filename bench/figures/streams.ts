/**
 * Figure 8: many open streams. 1,000 streamed chat completions opened at once against two services
 * of the tiny text model (Docker, loopback): sent directly to the services (half to each), through
 * the gateway's /v1 (auth on, a per-person API key), and through Debian's nginx proxying the same
 * streams to the same services (least_conn, proxy_buffering off, one worker like the gateway's one
 * process), and, for scale, through the least a proxy on Bun can do: a bare Bun.serve passing each
 * request on with fetch to the services in turn (no checks, no usage, nothing else). Each runtime
 * answers with its first chunk at once and generates in turn, so the streams stay open while they
 * wait: the first byte is what the HTTP path costs, and the gateway holds all 1,000 at once. Printed: requests answered without error, the proxy's RSS per open stream (peak
 * during the load less before it, over 1,000) and CPU time per stream (median round), and the time each proxy adds to the median and 99th
 * percentile first byte over direct in the same run. The sides alternate for `ROUNDS` rounds (9; STREAM_ROUNDS=N for a longer run); each
 * round's addition is over that round's direct run, and the median round is shown; the goal: the gateway adds at most 100 ms (p50)
 * and 300 ms (p99), or no more than nginx adds where the 2 shared cores are what limits. The ratio
 * is the larger of the gateway's two additions over its bound (≤ 1 meets the absolute goal).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, startAppWithTinyModels, TEXT_MODEL } from "@svc/testing";
import { median, ms, type Row } from "../lib/measure";
import { startNginx } from "../lib/nginx";
import { bunServer, cpuMs, listenerPids } from "../lib/processes";

const STREAMS = 1000;
const ROUNDS = Number(process.env.STREAM_ROUNDS ?? 9);
const CLIENT = join(REPO_ROOT, "bench", "lib", "stream-load.ts");

interface Load {
  firstByte: number[];
  failed: number;
  firstFailure: string | null;
  seconds: number;
}

const rssKb = (pids: number[]) => pids.reduce((sum, pid) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0), 0);
/** A proxy's CPU time over a round (clock ticks of 10 ms: ±10 µs here), per stream. */
const perStreamCpu = (cpu: number) => `${Math.round((cpu * 1000) / STREAMS)} µs`;
/** A bare Bun.serve relaying each request to `backends` in turn with fetch, its fetch limit raised as svc raises the gateway's. */
function startBareBunRelay(backends: string[]) {
  return bunServer(
    (port) =>
      `const to = ${JSON.stringify(backends)}; let next = 0; Bun.serve({ hostname: "127.0.0.1", port: ${port}, idleTimeout: 0, fetch: (r) => fetch(to[next++ % to.length] + new URL(r.url).pathname, { method: r.method, headers: r.headers, body: r.body }) })`,
    async (url) => (await fetch(`${url}/health`)).ok,
    { BUN_CONFIG_MAX_HTTP_REQUESTS: String(STREAMS * 4) },
  );
}
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Runs the load client in its own process (its fetch limit raised, not the proxy's), sampling the proxy's RSS meanwhile: the load, the peak RSS above the start, and the proxy's CPU time. */
async function streams(targets: string[], headers: Record<string, string>, proxyPids: number[]): Promise<Load & { extraKb: number; cpuMs: number }> {
  const body = JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: "Say hello." }], max_tokens: 48, temperature: 0, stream: true });
  const before = rssKb(proxyPids);
  const cpuBefore = cpuMs(proxyPids);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(proxyPids))), 50);
  try {
    const client = Bun.spawn([process.execPath, CLIENT], {
      env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(STREAMS * 2) },
      stdin: new Blob([JSON.stringify({ targets, count: STREAMS, body, headers })]),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(client.stdout).text(), new Response(client.stderr).text(), client.exited]);
    if (code !== 0) throw new Error(`the stream client failed: ${err.slice(0, 300)}`);
    return { ...(JSON.parse(out) as Load), extraKb: peak - before, cpuMs: cpuMs(proxyPids) - cpuBefore };
  } finally {
    clearInterval(sampler);
  }
}

export async function manyStreams(): Promise<Row[]> {
  const token = randomBytes(24).toString("hex");
  const tiny = await startAppWithTinyModels({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: token } });
  try {
    const ids = [await tiny.serving(["text-generation", TEXT_MODEL, "--name", "bench-streams-1"]), await tiny.serving(["text-generation", TEXT_MODEL, "--name", "bench-streams-2"])];
    const { key } = await tiny.client.keys.create({ name: "bench-streams" });
    const direct = await Promise.all(ids.map(async (id) => (await tiny.client.services.get(id)).url!));
    const nginx = await startNginx(direct.map((url) => Number(new URL(url).port)), { connections: STREAMS * 3, streaming: true });
    const bare = await startBareBunRelay(direct);
    try {
      const gatewayPids = listenerPids(Number(new URL(tiny.app.url).port));
      const sides = {
        direct: { targets: direct.map((url) => `${url}/v1/chat/completions`), headers: {}, pids: [] as number[] },
        gateway: { targets: [`${tiny.app.url}/v1/chat/completions`], headers: { authorization: `Bearer ${key}` }, pids: gatewayPids },
        nginx: { targets: [`${nginx.url}/v1/chat/completions`], headers: {}, pids: nginx.pids() },
        bun: { targets: [`${bare.url}/v1/chat/completions`], headers: {}, pids: listenerPids(Number(new URL(bare.url).port)) },
      };
      type Name = keyof typeof sides;
      const seen = Object.fromEntries(Object.keys(sides).map((name) => [name, { p50: [] as number[], p99: [] as number[], failed: 0, firstFailure: null as string | null, extraKb: [] as number[], cpuMs: [] as number[] }])) as Record<Name, { p50: number[]; p99: number[]; failed: number; firstFailure: string | null; extraKb: number[]; cpuMs: number[] }>;
      // Two streams through each side first (one per service): no round measures a side's first connections (nor the gateway's first question to a service, whether it keeps records of its streams' ends).
      for (const side of Object.values(sides))
        for (const i of [0, 1]) await fetch(side.targets[i % side.targets.length]!, { method: "POST", headers: { "content-type": "application/json", ...side.headers }, body: JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hi." }], max_tokens: 2, stream: true }) }).then((response) => response.text());
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of Object.keys(sides) as Name[]) {
          const side = sides[name];
          const load = await streams(side.targets, side.headers, side.pids);
          const into = seen[name];
          into.p50.push(percentile(load.firstByte, 0.5));
          into.p99.push(percentile(load.firstByte, 0.99));
          into.failed += load.failed;
          into.firstFailure ??= load.firstFailure;
          into.extraKb.push(load.extraKb);
          into.cpuMs.push(load.cpuMs);
          const cpu = side.pids.length ? `, ${perStreamCpu(load.cpuMs)} CPU per stream` : "";
          process.stderr.write(`  ${name} round ${round + 1}: ${load.failed} failed, first byte p50 ${ms(percentile(load.firstByte, 0.5))} p99 ${ms(percentile(load.firstByte, 0.99))}, +${(load.extraKb / 1024).toFixed(1)} MB${cpu}, ${load.seconds.toFixed(1)} s\n`);
        }
      }
      // Each round's proxy against the direct run just before it, then the median round: the machine's other work swings whole rounds.
      const field = (q: number) => (q === 0.5 ? "p50" : "p99");
      const p = (name: Name, q: number) => median(seen[name][field(q)]);
      const added = (name: Name, q: number) => median(seen[name][field(q)].map((value, round) => value - seen.direct[field(q)][round]!));
      const perStream = (name: Name) => `${(Math.max(...seen[name].extraKb) / STREAMS).toFixed(1)} KB, ${perStreamCpu(median(seen[name].cpuMs))} CPU`;
      const answered = (name: Name) => `${STREAMS * ROUNDS - seen[name].failed}/${STREAMS * ROUNDS} answered${seen[name].firstFailure ? ` (${seen[name].firstFailure!.slice(0, 60)})` : ""}`;
      const [g50, g99, n50, n99, b50, b99] = [added("gateway", 0.5), added("gateway", 0.99), added("nginx", 0.5), added("nginx", 0.99), added("bun", 0.5), added("bun", 0.99)];
      const signed = (value: number) => `${value < 0 ? "−" : "+"}${ms(Math.abs(value))}`;
      const withinAbsolute = g50 <= 100 && g99 <= 300;
      const withinNginx = g50 <= Math.max(n50, 0) && g99 <= Math.max(n99, 0);
      const errors = seen.gateway.failed + seen.direct.failed;
      return [
        {
          figure: `${STREAMS} open streams through /v1 (2 services): first byte added over direct, p50 / p99`,
          svc: `${signed(g50)} / ${signed(g99)}; ${answered("gateway")}; ${perStream("gateway")} per stream`,
          comparison: `nginx ${signed(n50)} / ${signed(n99)} (${answered("nginx")}; ${perStream("nginx")}); bare Bun proxy ${signed(b50)} / ${signed(b99)} (${perStream("bun")}); direct ${ms(p("direct", 0.5))} / ${ms(p("direct", 0.99))} (${answered("direct")})`,
          ratio: Math.max(g50 / 100, g99 / 300),
          goal: "≤ +100 / +300 ms, or ≤ nginx's",
          met: errors === 0 && (withinAbsolute || withinNginx),
        },
      ];
    } finally {
      await nginx.stop();
      await bare.stop();
    }
  } finally {
    await tiny.cleanup();
  }
}
