/**
 * `bun bench/runtimes-text-generation.ts [requests] [max tokens]`: generation speed of the bare
 * text-generation runtime on the tiny GGUF, and its memory. Prints tokens/s and resident memory.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";

const requests = Number(process.argv[2] ?? 20);
const maxTokens = Number(process.argv[3] ?? 256);
const root = new URL("..", import.meta.url).pathname;

function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN);
  return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
}

const cacheDir = mkdtempSync(join(tmpdir(), "svc-bench-"));
const model = makeTinyModels(cacheDir).textGeneration;
const port = freePort();
const runtime = Bun.spawn(["bun", join(root, "runtimes/text-generation/src/main.ts"), "--model", model, "--port", String(port)], {
  stdout: "ignore",
  stderr: "inherit",
});
const url = `http://127.0.0.1:${port}`;

try {
  const startup = performance.now();
  while ((await fetch(`${url}/health`).catch(() => undefined))?.status !== 200) {
    if (runtime.exitCode !== null) throw new Error("the runtime exited");
    await Bun.sleep(20);
  }
  const startupMs = performance.now() - startup;
  const idle = memoryOf(runtime.pid);

  const chat = (i: number) =>
    fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: `Benchmark request ${i}: say something.` }], max_tokens: maxTokens, temperature: 0.8, seed: i }),
    }).then((response) => response.json() as Promise<{ usage: { prompt_tokens: number; completion_tokens: number } }>);

  await chat(-1); // warm-up
  let generated = 0;
  let prompted = 0;
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const { usage } = await chat(i);
    generated += usage.completion_tokens;
    prompted += usage.prompt_tokens;
  }
  const seconds = (performance.now() - started) / 1000;

  const concurrentStart = performance.now();
  const concurrent = await Promise.all(Array.from({ length: 5 }, (_, i) => chat(100 + i)));
  const concurrentSeconds = (performance.now() - concurrentStart) / 1000;
  const concurrentTokens = concurrent.reduce((sum, answer) => sum + answer.usage.completion_tokens, 0);
  const loaded = memoryOf(runtime.pid);

  console.log(`text-generation runtime, tiny llama GGUF (${model})`);
  console.log(`  startup to healthy       ${startupMs.toFixed(0)} ms`);
  console.log(`  sequential               ${requests} requests, ${generated} tokens generated (${prompted} prompt) in ${seconds.toFixed(2)} s`);
  console.log(`  tokens/s                 ${(generated / seconds).toFixed(0)} (sequential, end to end over HTTP)`);
  console.log(`  tokens/s, 5 concurrent   ${(concurrentTokens / concurrentSeconds).toFixed(0)} (requests queue, served one at a time)`);
  console.log(`  memory (RSS)             ${idle.rssMiB.toFixed(0)} MiB idle, ${loaded.rssMiB.toFixed(0)} MiB after the run, peak ${loaded.peakMiB.toFixed(0)} MiB`);
} finally {
  runtime.kill("SIGTERM");
  await runtime.exited;
  rmSync(cacheDir, { recursive: true, force: true });
}
