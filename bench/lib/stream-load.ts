/**
 * `bun bench/lib/stream-load.ts` with a JSON plan on stdin: opens `count` streamed requests at once
 * (request i to `targets[i % targets.length]`), each read to its end, and prints JSON: the time to
 * each stream's first body byte (ms, from when its request was sent), how many failed (and the first
 * failure), and how long the whole load took. Runs as its own process, started with
 * BUN_CONFIG_MAX_HTTP_REQUESTS raised (Bun's fetch keeps at most 256 requests open otherwise): the
 * client's limit, not the proxy's it measures.
 */
export interface Plan {
  targets: string[];
  count: number;
  body: string;
  headers: Record<string, string>;
}

const plan = (await Bun.stdin.json()) as Plan;
const firstByte: number[] = [];
const failures: string[] = [];
const started = performance.now();

async function one(i: number) {
  const sent = performance.now();
  try {
    const response = await fetch(plan.targets[i % plan.targets.length]!, { method: "POST", headers: { "content-type": "application/json", ...plan.headers }, body: plan.body });
    if (!response.ok || !response.body) throw new Error(`status ${response.status}: ${(await response.text()).slice(0, 200)}`);
    const reader = response.body.getReader();
    let first = true;
    let text = "";
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
      if (first) {
        firstByte.push(performance.now() - sent);
        first = false;
      }
      text += new TextDecoder().decode(read.value);
    }
    if (!text.trimEnd().endsWith("data: [DONE]")) throw new Error(`a stream ended without [DONE]: …${text.slice(-120)}`);
    if (text.includes('"error"')) throw new Error(`a stream carried an error: ${text.slice(0, 200)}`);
  } catch (error) {
    failures.push(String((error as Error).message ?? error));
  }
}

await Promise.all(Array.from({ length: plan.count }, (_, i) => one(i)));
console.log(JSON.stringify({ firstByte, failed: failures.length, firstFailure: failures[0] ?? null, seconds: (performance.now() - started) / 1000 }));
