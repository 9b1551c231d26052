/**
 * `bun bench/lib/rate-load.ts` with a JSON plan on stdin: an open-loop load client. Each run sends
 * POSTs to its target on a fixed schedule (request i is due at start + i / rate), whatever the
 * answers before it are doing, and times each request from when it was due to the end of its
 * answer's body: a client that falls behind, or a server that stalls, shows in the latency instead
 * of slowing the load down. Prints one JSON line per run as it begins (`{"begin": i}`) and one
 * with its result (RunResult), so the caller can read a proxy's CPU time around each run.
 * Runs as its own process with BUN_CONFIG_MAX_HTTP_REQUESTS raised: a stall must queue at the
 * server, not in this client's fetch.
 */
export interface RatePlan {
  /** `headers` of a run are added to the plan's. */
  runs: Array<{ target: string; rate: number; seconds: number; headers?: Record<string, string> }>;
  headers: Record<string, string>;
  body: string;
  /** A pause between runs (ms), so one run's stragglers do not fall into the next. */
  pauseMs: number;
}

export interface RunResult {
  run: number;
  sent: number;
  failed: number;
  firstFailure: string | null;
  /** Latency from each request's due time, ms. */
  p50: number;
  p99: number;
  max: number;
  /** How late this client sent the latest request after it was due (ms): its own lag, which counts on every side alike. */
  sendLagMax: number;
}

/** A request that takes longer than this is a failure, so a run always ends. */
const REQUEST_TIMEOUT_MS = 10_000;

const plan = (await Bun.stdin.json()) as RatePlan;
const common = { "content-type": "application/json", ...plan.headers };
const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

async function run(index: number, target: string, rate: number, seconds: number, headers: Record<string, string>): Promise<RunResult> {
  const count = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies = new Float64Array(count).fill(Number.NaN);
  const failures: string[] = [];
  const answers: Promise<void>[] = [];
  let sendLagMax = 0;
  const one = async (i: number, due: number) => {
    try {
      const response = await fetch(target, { method: "POST", headers, body: plan.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`status ${response.status}: ${text.slice(0, 160)}`);
      latencies[i] = performance.now() - due;
    } catch (error) {
      failures.push(String((error as Error).message ?? error));
    }
  };
  const start = performance.now() + 2;
  for (let i = 0; i < count; ) {
    const now = performance.now();
    for (; i < count && start + i * interval <= now; i++) {
      const due = start + i * interval;
      sendLagMax = Math.max(sendLagMax, now - due);
      answers.push(one(i, due));
    }
    if (i < count) await Bun.sleep(Math.max(0, start + i * interval - performance.now()));
  }
  await Promise.all(answers);
  const answered = latencies.filter((value) => !Number.isNaN(value)).sort();
  return { run: index, sent: count, failed: failures.length, firstFailure: failures[0] ?? null, p50: percentile(answered, 0.5), p99: percentile(answered, 0.99), max: answered[answered.length - 1] ?? Number.NaN, sendLagMax };
}

for (const [index, { target, rate, seconds, headers }] of plan.runs.entries()) {
  console.log(JSON.stringify({ begin: index }));
  console.log(JSON.stringify(await run(index, target, rate, seconds, { ...common, ...headers })));
  await Bun.sleep(plan.pauseMs);
}
