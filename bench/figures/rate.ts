/**
 * Figure 10: the gateway at a lab's request rate. Labs size a gateway by requests a second, so this
 * figure is open-loop: small non-streamed chats sent on a fixed schedule at 200, 500, 1,000 and
 * 2,000 requests/s, each timed from when it was due (a stall shows as latency instead of slowing the
 * load), to a fast upstream (a Bun server of the bench answering each chat at once with a small JSON
 * and its usage) registered with `svc endpoint add`: directly, through the gateway's `/v1` as users
 * run it (debug off, auth on, a key from `svc key create`, usage recorded) and through Debian's nginx
 * proxying the same upstream (upstream keep-alive, one worker like the gateway's one process), and,
 * for scale, through the least a proxy on Bun can do (a bare Bun.serve passing each request on with
 * fetch; shown, not judged). Every side gets the same headers. The load client is a Bun process of its own (bench/lib/rate-load.ts),
 * so its event loop is not the gateway's; on 2 cores it shares them with the upstream, the gateway
 * and nginx, and its own lag counts on every side alike. The sides alternate in each of `ROUNDS`
 * rounds (RATE_ROUNDS=N for more); each round's additions are over that round's direct run, and the
 * median round is shown. Goal: at most +1 ms at p50 and +5 ms at p99 with no errors, or no more than
 * nginx adds in the same run; the ratio is the larger of the two additions over its bound.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { REPO_ROOT, runSvc, startSvc } from "@svc/testing";
import { median, type Row } from "../lib/measure";
import { startNginx } from "../lib/nginx";
import { bunServer, cpuMs, listenerPids } from "../lib/processes";
import type { RatePlan, RunResult } from "../lib/rate-load";

const RATES = [200, 500, 1000, 2000];
const ROUNDS = Number(process.env.RATE_ROUNDS ?? 5);
/** Long enough for 1,000 requests at each rate (a p99 of ten), and at least 2 s. */
const secondsAt = (rate: number) => Math.max(2, 1000 / rate);
/** Each side's load before the rounds. */
const WARM_UP = { rate: 1000, seconds: 3 };
const MODEL = "bench/rate-fast";
const CLIENT = join(REPO_ROOT, "bench", "lib", "rate-load.ts");
const SIDES = ["direct", "gateway", "nginx", "bun"] as const;
type Side = (typeof SIDES)[number];

/**
 * An OpenAI-compatible server that answers every chat at once: what the gateway adds is all there is
 * to see. It never closes an idle connection (Bun's default closes them after 10 s, and nginx, which
 * keeps its upstream connections for 60 s, then answered a POST sent on one just closed with 502).
 */
function startFastUpstream() {
  const answer = JSON.stringify({
    id: "chatcmpl-bench",
    object: "chat.completion",
    created: 1_700_000_000,
    model: MODEL,
    choices: [{ index: 0, message: { role: "assistant", content: "Hello!", refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
  });
  const models = JSON.stringify({ object: "list", data: [{ id: MODEL, object: "model", created: 0, owned_by: "bench" }] });
  return bunServer(
    (port) =>
      `const json = { "content-type": "application/json" }; Bun.serve({ hostname: "127.0.0.1", port: ${port}, idleTimeout: 0, fetch: async (r) => { const path = new URL(r.url).pathname; if (path === "/v1/chat/completions") { await r.arrayBuffer(); return new Response(${JSON.stringify(answer)}, { headers: json }); } if (path === "/v1/models") return new Response(${JSON.stringify(models)}, { headers: json }); return new Response("ok"); } })`,
    async (url) => (await fetch(`${url}/health`)).ok,
  );
}

/** For scale, the least a proxy on Bun can do: Bun.serve passing each request on with fetch, nothing else. */
function startBareBunProxy(backendPort: number) {
  return bunServer(
    (port) => `Bun.serve({ hostname: "127.0.0.1", port: ${port}, fetch: (r) => { const u = new URL(r.url); return fetch("http://127.0.0.1:${backendPort}" + u.pathname + u.search, { method: r.method, headers: r.headers, body: r.body }); } })`,
    async (url) => (await fetch(`${url}/health`)).ok,
  );
}

interface Seen {
  p50: number[];
  p99: number[];
  sent: number;
  failed: number;
  firstFailure: string | null;
  cpuPerRequest: number[];
}

/** Runs `plan` in the load client's own process, reading `pids`' CPU time around each run; each run's result with its CPU (ms). */
async function load(plan: RatePlan, pids: Array<number[]>): Promise<Array<RunResult & { cpuMs: number }>> {
  const client = Bun.spawn([process.execPath, CLIENT], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "8192" },
    stdin: new Blob([JSON.stringify(plan)]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const results: Array<RunResult & { cpuMs: number }> = [];
  let before = 0;
  let pending = "";
  const decoder = new TextDecoder();
  for await (const chunk of client.stdout as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
      const line = JSON.parse(pending.slice(0, newline)) as { begin: number } | RunResult;
      pending = pending.slice(newline + 1);
      if ("begin" in line) before = cpuMs(pids[line.begin]!);
      else results.push({ ...line, cpuMs: cpuMs(pids[line.run]!) - before });
    }
  }
  const [err, code] = await Promise.all([new Response(client.stderr).text(), client.exited]);
  if (code !== 0) throw new Error(`the rate client failed: ${err.slice(0, 300)}`);
  return results;
}

const signed = (value: number) => `${value < 0 ? "−" : "+"}${Math.abs(value).toFixed(2)} ms`;
const thousands = (value: number) => value.toLocaleString("en-US");

export async function requestRate(): Promise<Row[]> {
  const token = randomBytes(24).toString("hex");
  const upstream = await startFastUpstream();
  const app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: token } });
  const nginx = await startNginx([Number(new URL(upstream.url).port)]);
  const bare = await startBareBunProxy(Number(new URL(upstream.url).port));
  try {
    const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), SVC_AUTH_TOKEN: token };
    const added = await runSvc(["endpoint", "add", "bench-rate", `${upstream.url}/v1`, "--models", MODEL], env);
    if (added.code !== 0) throw new Error(`svc endpoint add: ${added.stderr}`);
    const created = await runSvc(["key", "create", "--name", "bench-rate", "--json"], env);
    if (created.code !== 0) throw new Error(`svc key create: ${created.stderr}`);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const path = "/v1/chat/completions";
    const targets: Record<Side, string> = { direct: `${upstream.url}${path}`, gateway: `${app.url}${path}`, nginx: `${nginx.url}${path}`, bun: `${bare.url}${path}` };
    // Whose CPU each side costs: the proxy's own process(es); direct has none in between.
    const proxyPids: Record<Side, number[]> = { direct: [], gateway: listenerPids(app.port), nginx: nginx.pids(), bun: listenerPids(Number(new URL(bare.url).port)) };

    const runs: Array<{ side: Side; rate: number; round: number }> = [];
    // Not counted: each side's first connections, the gateway's first look-ups and its JIT's first compilations (a run of 1 s at 500/s left the gateway's first 2,000/s round ~10× slower at p99).
    for (const side of SIDES) runs.push({ side, rate: WARM_UP.rate, round: -1 });
    for (let round = 0; round < ROUNDS; round++)
      for (const rate of RATES)
        // The order of the sides turns each round: a side is not always the one after another's stragglers.
        for (let i = 0; i < SIDES.length; i++) runs.push({ side: SIDES[(i + round) % SIDES.length]!, rate, round });
    const plan: RatePlan = {
      runs: runs.map(({ side, rate, round }) => ({ target: targets[side], rate, seconds: round < 0 ? WARM_UP.seconds : secondsAt(rate) })),
      headers: { authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "Say hello." }], max_tokens: 8 }),
      pauseMs: 300,
    };
    const results = await load(plan, runs.map(({ side }) => proxyPids[side]));

    const seen = new Map<string, Seen>();
    const at = (side: Side, rate: number) => {
      const id = `${side} ${rate}`;
      if (!seen.has(id)) seen.set(id, { p50: [], p99: [], sent: 0, failed: 0, firstFailure: null, cpuPerRequest: [] });
      return seen.get(id)!;
    };
    for (const [i, result] of results.entries()) {
      const { side, rate, round } = runs[i]!;
      if (round < 0) continue;
      const into = at(side, rate);
      into.p50.push(result.p50);
      into.p99.push(result.p99);
      into.sent += result.sent;
      into.failed += result.failed;
      into.firstFailure ??= result.firstFailure;
      into.cpuPerRequest.push((result.cpuMs * 1000) / result.sent);
      process.stderr.write(`  ${side} ${rate}/s round ${round + 1}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, max ${result.max.toFixed(1)} ms, ${result.failed} failed, client lag ≤ ${result.sendLagMax.toFixed(1)} ms\n`);
    }

    return RATES.map((rate) => {
      const [direct, gateway, proxied, bun] = SIDES.map((side) => at(side, rate));
      // Each round's proxy against that round's direct run, then the median round: the machine's other work swings whole rounds.
      const added = (side: Seen, field: "p50" | "p99") => median(side[field].map((value, round) => value - direct![field][round]!));
      const [g50, g99, n50, n99, b50, b99] = [added(gateway!, "p50"), added(gateway!, "p99"), added(proxied!, "p50"), added(proxied!, "p99"), added(bun!, "p50"), added(bun!, "p99")];
      // One line of the table: a failure's text (an HTML page from nginx, say) on one line, without the table's bars.
      const failure = (text: string) => text.replace(/\s+/g, " ").replaceAll("|", "/").slice(0, 60);
      const errors = (side: Seen) => `${side.failed} errors of ${thousands(side.sent)}${side.firstFailure ? ` (${failure(side.firstFailure)})` : ""}`;
      const cpu = (side: Seen) => `${median(side.cpuPerRequest).toFixed(0)} µs CPU per request`;
      const withinAbsolute = g50 <= 1 && g99 <= 5;
      const withinNginx = g50 <= Math.max(n50, 0) && g99 <= Math.max(n99, 0);
      return {
        figure: `open-loop ${thousands(rate)} requests/s, small chats through /v1 to an outside endpoint: latency added over direct, p50 / p99`,
        svc: `${signed(g50)} / ${signed(g99)}; ${errors(gateway!)}; ${cpu(gateway!)}`,
        comparison: `nginx ${signed(n50)} / ${signed(n99)} (${errors(proxied!)}; ${cpu(proxied!)}); bare Bun proxy ${signed(b50)} / ${signed(b99)} (${bun!.failed} errors; ${cpu(bun!)}); direct ${median(direct!.p50).toFixed(2)} / ${median(direct!.p99).toFixed(2)} ms (${errors(direct!)})`,
        ratio: Math.max(g50 / 1, g99 / 5),
        goal: "≤ +1 / +5 ms, or ≤ nginx's",
        met: gateway!.failed === 0 && direct!.failed === 0 && (withinAbsolute || withinNginx),
      };
    });
  } finally {
    await nginx.stop();
    await bare.stop();
    await app.cleanup();
    await upstream.stop();
  }
}
