/**
 * `bun bench/batch.ts [files] [concurrency] [rounds] [chat files]`: files per second of svc's batch driver against the
 * same runtime driven directly by a loop with the same concurrency, for transcribe (spoken WAVs,
 * tiny whisper) and chat (text files, tiny llama), in one run. Both talk to one runtime started
 * once per task (its start-up is left out of both), both write each output to a file. Prints each
 * the median rate of each over `rounds` interleaved rounds (default 3, the order alternating) and
 * their ratio (the goal: the driver at 0.95× the loop or better), with the machine's load
 * average, since other work on the machine moves single runs a lot. Chat on the tiny model answers
 * some 100 files a second, so it gets ten times the files by default: with 40 the driver's own
 * start-up (a Bun process, counted in its time) would be most of what is measured.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { freePort } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";

const files = Number(process.argv[2] ?? 40);
const concurrency = Number(process.argv[3] ?? 4);
const rounds = Number(process.argv[4] ?? 3);
const chatFiles = Number(process.argv[5] ?? files * 10);
const count = (task: "transcribe" | "chat") => (task === "chat" ? chatFiles : files);
const root = new URL("..", import.meta.url).pathname;
const bun = process.execPath;
const work = mkdtempSync(join(tmpdir(), "svc-bench-batch-"));
const models = makeTinyModels(join(work, "models"));
const CHAT_PARAMS = { prompt: "Summarise in a few words:\n{text}", max_tokens: 32, temperature: 0, seed: 1 };

function inputs(kind: "audio" | "texts", n: number): string {
  const dir = join(work, kind);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    const name = join(dir, `in-${String(i).padStart(3, "0")}`);
    if (kind === "texts") writeFileSync(`${name}.txt`, `Document ${i}. The quick brown fox jumps over the lazy dog, ${i} times over.`);
    else if (Bun.spawnSync(["espeak-ng", "-w", `${name}.wav`, `hello number ${i}, this is a benchmark`]).exitCode !== 0) throw new Error("espeak-ng failed (apt-get install espeak-ng)");
  }
  return dir;
}

async function startRuntime(runtime: string, model: string) {
  const port = freePort();
  const proc = Bun.spawn([bun, join(root, `runtimes/${runtime}/src/main.ts`), "--model", model, "--port", String(port)], { stdout: "ignore", stderr: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  while ((await fetch(`${url}/health`).catch(() => undefined))?.status !== 200) {
    if (proc.exitCode !== null) throw new Error(`the ${runtime} runtime exited`);
    await Bun.sleep(50);
  }
  return { url, stop: () => proc.kill() };
}

/** One input the way a hand-written client would send it, its output written beside the others. */
async function direct(task: "transcribe" | "chat", url: string, input: string, outDir: string) {
  const stem = join(outDir, basename(input).replace(/\.[^.]+$/, ""));
  if (task === "transcribe") {
    const form = new FormData();
    form.set("file", new Blob([readFileSync(input)]), basename(input));
    form.set("response_format", "verbose_json");
    const answer = (await (await fetch(`${url}/v1/audio/transcriptions`, { method: "POST", body: form })).json()) as { text: string };
    writeFileSync(`${stem}.txt`, answer.text);
    writeFileSync(`${stem}.json`, JSON.stringify(answer));
  } else {
    const content = CHAT_PARAMS.prompt.replace("{text}", readFileSync(input, "utf8"));
    const body = { model: "bench", messages: [{ role: "user", content }], max_tokens: CHAT_PARAMS.max_tokens, temperature: 0, seed: 1 };
    const answer = (await (await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as { choices: { message: { content: string } }[] };
    writeFileSync(`${stem}.txt`, answer.choices[0].message.content);
  }
}

/** The loop: the same number of requests in flight as the driver keeps. */
async function loop(task: "transcribe" | "chat", url: string, inputDir: string): Promise<number> {
  const outDir = join(work, `${task}-loop-${Date.now()}`);
  mkdirSync(outDir);
  const queue = readdirSync(inputDir).map((name) => join(inputDir, name));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await direct(task, url, next, outDir);
    }),
  );
  return count(task) / ((performance.now() - started) / 1000);
}

/** The batch driver (runtimes/batch-driver) over the same folder and runtime, to a fresh output folder, timed from its start to its exit. */
async function driver(task: "transcribe" | "chat", url: string, inputDir: string): Promise<number> {
  const outDir = join(work, `${task}-batch-${Date.now()}`);
  const args = ["--task", task, "--input-dir", inputDir, "--output-dir", outDir, "--concurrency", String(concurrency), "--idle-timeout", "0", "--runtime-url", url];
  if (task === "chat") args.push("--params", JSON.stringify(CHAT_PARAMS));
  const started = performance.now();
  const proc = Bun.spawn([bun, join(root, "runtimes/batch-driver/src/main.ts"), ...args], { stdout: "ignore", stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error(`the batch driver exited with ${proc.exitCode}`);
  const seconds = (performance.now() - started) / 1000;
  const done = readdirSync(outDir).filter((name) => name.endsWith(task === "chat" ? ".txt" : ".json")).length;
  if (done !== count(task)) throw new Error(`the batch driver wrote ${done} outputs for ${count(task)} inputs`);
  return count(task) / seconds;
}

try {
  console.log(`batch bench: ${files} audio files, ${chatFiles} text files, ${concurrency} requests in flight, median of ${rounds} rounds; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
  for (const [task, runtime, model, kind] of [
    ["transcribe", "speech-recognition", models.speechRecognition, "audio"],
    ["chat", "text-generation", models.textGeneration, "texts"],
  ] as const) {
    const dir = inputs(kind, count(task));
    const server = await startRuntime(runtime, model);
    try {
      await direct(task, server.url, join(dir, readdirSync(dir)[0]), mkdtempSync(join(work, "warm-"))); // warm-up
      // Interleaved, the order alternating, so a drift of the machine's load touches both alike.
      const loops: number[] = [];
      const batches: number[] = [];
      for (let round = 0; round < rounds; round++) {
        if (round % 2 === 0) {
          loops.push(await loop(task, server.url, dir));
          batches.push(await driver(task, server.url, dir));
        } else {
          batches.push(await driver(task, server.url, dir));
          loops.push(await loop(task, server.url, dir));
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
      const [direct_, batch] = [median(loops), median(batches)];
      const all = (values: number[]) => values.map((v) => v.toFixed(2)).join(", ");
      console.log(`${task.padEnd(10)} loop ${direct_.toFixed(2)} files/s   batch driver ${batch.toFixed(2)} files/s   ratio ${(batch / direct_).toFixed(3)}×   (loop: ${all(loops)}; driver: ${all(batches)})`);
    } finally {
      server.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
