/**
 * `bun bench/v1-routing.ts [requests]`: what routing by model on the gateway's /v1 adds over
 * /proxy/<id>, on the same requests to the same service (the real text-generation runtime with the
 * tiny model, on Docker). Requests alternate between the two paths (and which goes first), one at
 * a time, after a warm-up; prints the p50 and p90 of each side by side and the difference.
 * Traffic stays on loopback; every loop is bounded.
 */
import { startAppWithTinyModels, TEXT_MODEL } from "@svc/testing";

const requests = Number(process.argv[2] ?? 300);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(10);

const tiny = await startAppWithTinyModels();
try {
  const id = await tiny.serving(["text-generation", TEXT_MODEL, "--name", "bench-v1"]);

  const chatBody = JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hi" }], max_tokens: 1, temperature: 0 });
  const cases = {
    "chat, 1 token": {
      proxy: () => fetch(`${tiny.app.url}/proxy/${id}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: chatBody }),
      v1: () => fetch(`${tiny.app.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: chatBody }),
    },
    "GET models": {
      proxy: () => fetch(`${tiny.app.url}/proxy/${id}/v1/models`),
      v1: () => fetch(`${tiny.app.url}/v1/models/${TEXT_MODEL}`),
    },
  };

  const time = async (send: () => Promise<Response>) => {
    const started = performance.now();
    const response = await send();
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`answered ${response.status}`);
    return performance.now() - started;
  };

  console.log(`${requests} requests per path and case, alternating; one service of ${TEXT_MODEL} on Docker\n`);
  console.log(`${"case".padEnd(16)}${"proxy p50".padStart(10)}${"v1 p50".padStart(10)}${"Δ p50".padStart(10)}${"proxy p90".padStart(10)}${"v1 p90".padStart(10)}`);
  for (const [name, paths] of Object.entries(cases)) {
    for (let i = 0; i < 20; i++) await Promise.all([time(paths.proxy), time(paths.v1)]); // warm-up
    const proxy: number[] = [];
    const v1: number[] = [];
    for (let i = 0; i < requests; i++) {
      if (i % 2 === 0) {
        proxy.push(await time(paths.proxy));
        v1.push(await time(paths.v1));
      } else {
        v1.push(await time(paths.v1));
        proxy.push(await time(paths.proxy));
      }
    }
    const [p50, v50] = [percentile(proxy, 0.5), percentile(v1, 0.5)];
    console.log(`${name.padEnd(16)}${ms(p50)}${ms(v50)}${ms(v50 - p50)}${ms(percentile(proxy, 0.9))}${ms(percentile(v1, 0.9))}`);
  }
} finally {
  await tiny.cleanup();
}
