/**
 * Figure 6: the runtime adds nothing to the engine. On the tiny models, one thread each side:
 * - text: a 256-token greedy chat completion streamed over HTTP from the text-generation runtime
 *   against node-llama-cpp driven in-process on the same GGUF and the same prompt tokens; tokens/s
 *   after the first token (from the first token to the last, as a streaming client sees them; the
 *   end-to-end rate is printed beside it) and time to first token (the first token's text),
 *   medians of 15, alternating. The direct side is timed from prompt tokens: the runtime also
 *   applies the chat template and tokenizes, inside its time. For scale, the HTTP floor: the same
 *   client against a Bun server that answers the same request with its first token at once, the
 *   least any runtime over HTTP adds to the engine's first token: the first token's goal is 0.95 of
 *   the ratio that floor allows;
 * - speech: a transcription over HTTP from the speech runtime against whisper.node's transcribeFile
 *   on the same 16 kHz WAV (spoken by espeak-ng); transcriptions/s, medians of 9, alternating.
 * A round of either takes well under a second, so more rounds than other figures: on a shared
 * 2-core machine single rounds swing by ±15%.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaLogLevel, resolveChatWrapper, GeneralChatWrapper } from "node-llama-cpp";
import { initWhisper } from "@fugood/whisper.node";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import { decodeWav, resampleTo16k } from "@svc/runtime-speech-recognition";
import { freePort, REPO_ROOT } from "@svc/testing";
import { aptInstall, atLeast, median, until, type Row } from "../lib/measure";
import { bunServer } from "../lib/processes";

const TEXT_ROUNDS = 15;
const SPEECH_ROUNDS = 9;
const MAX_TOKENS = 256;
/**
 * Each round's prompt differs from the last at its start: the runtime keeps a sequence's cache of
 * what a prompt shares with the one before (prefix-reuse.ts), and a repeated prompt would time one
 * token's evaluation. The direct side keeps its shared prefix the same way, so both evaluate alike.
 */
const promptOf = (round: number) => `Story ${round}: write a long story about a lighthouse keeper.`;

function fileIn(dir: string, suffix: string): string {
  const name = readdirSync(dir).find((file) => file.endsWith(suffix));
  if (!name) throw new Error(`no ${suffix} file in ${dir}`);
  return join(dir, name);
}

async function startRuntime(task: "text-generation" | "speech-recognition", modelDir: string) {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "runtimes", task, "src", "main.ts"), "--model", modelDir, "--port", String(port), "--threads", "1"], { stdout: "ignore", stderr: "ignore" });
  await until(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 120_000, 20);
  return { url: `http://127.0.0.1:${port}`, stop: async () => (proc.kill(), await proc.exited) };
}

/** A Bun server in its own process that reads a chat request and streams one token and the usage at once. */
function startHttpFloor() {
  const events = ['{"choices":[{"index":0,"delta":{"content":"Once"}}]}', '{"choices":[],"usage":{"completion_tokens":1}}'].map((data) => `data: ${data}\n\n`).join("");
  return bunServer(
    (port) => `Bun.serve({ hostname: "127.0.0.1", port: ${port}, async fetch(request) { await request.json(); return new Response(${JSON.stringify(events + "data: [DONE]\n\n")}, { headers: { "content-type": "text/event-stream" } }); } })`,
    async (url) => (await fetch(`${url}/`, { method: "POST", body: "{}" })).ok,
  );
}

/** A 16-bit mono 16 kHz WAV of `samples`. */
function wav16k(samples: Float32Array): Uint8Array {
  const data = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const text = (at: number, s: string) => [...s].forEach((c, i) => data.setUint8(at + i, c.charCodeAt(0)));
  text(0, "RIFF"); data.setUint32(4, 36 + samples.length * 2, true); text(8, "WAVE"); text(12, "fmt ");
  data.setUint32(16, 16, true); data.setUint16(20, 1, true); data.setUint16(22, 1, true); data.setUint32(24, 16000, true);
  data.setUint32(28, 32000, true); data.setUint16(32, 2, true); data.setUint16(34, 16, true); text(36, "data"); data.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => data.setInt16(44 + i * 2, Math.max(-1, Math.min(1, s)) * 0x7fff, true));
  return new Uint8Array(data.buffer);
}

interface Rates {
  /** Tokens/s after the first: the tokens after it over the time from it to the last one. */
  tps: number;
  /** Tokens/s over the whole request, the first token's wait included. */
  endToEnd: number;
  ttft: number;
  count: number;
}

/** `count` tokens, the first at `firstMs` and the last at `lastMs` after the start, all done at `totalMs`. */
const rates = (count: number, firstMs: number, lastMs: number, totalMs: number): Rates => ({
  tps: (count - 1) / ((lastMs - firstMs) / 1000),
  endToEnd: count / (totalMs / 1000),
  ttft: firstMs,
  count,
});

async function text(modelDir: string): Promise<Row[]> {
  const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.warn });
  const model = await llama.loadModel({ modelPath: fileIn(modelDir, ".gguf"), gpuLayers: 0 });
  const context = await model.createContext({ contextSize: Math.min(model.trainContextSize, 4096), sequences: 1, threads: 1 });
  const sequence = context.getSequence();
  const wrapper = resolveChatWrapper(model) ?? new GeneralChatWrapper();
  const tokensOf = (round: number) => wrapper.generateContextState({ chatHistory: [{ type: "user", text: promptOf(round) }, { type: "model", response: [] }] }).contextText.tokenize(model.tokenizer);
  const direct = async (round: number) => {
    const tokens = tokensOf(round);
    const started = performance.now();
    const keep = Math.min(sequence.compareContextTokens(tokens).firstDifferentIndex, tokens.length - 1);
    if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    let first = 0;
    let last = 0;
    let count = 0;
    for await (const _token of sequence.evaluate(tokens.slice(keep), { temperature: 0 })) {
      last = performance.now() - started;
      if (count++ === 0) first = last;
      if (count >= MAX_TOKENS) break;
    }
    return rates(count, first, last, performance.now() - started);
  };
  const runtime = await startRuntime("text-generation", modelDir);
  const floor = await startHttpFloor();
  const overHttp = async (round: number, url = runtime.url) => {
    const started = performance.now();
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: promptOf(round) }], max_tokens: MAX_TOKENS, temperature: 0, stream: true, stream_options: { include_usage: true } }),
    });
    // What a streaming client does: read each event as it comes; the first token is the first
    // non-empty content (the role chunk before it carries none), the count is the usage chunk's.
    const decoder = new TextDecoder();
    let first = 0;
    let last = 0;
    let buffered = "";
    let count = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffered.indexOf("\n\n")) !== -1) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (!event.startsWith("data: {")) continue;
        const data = JSON.parse(event.slice(6)) as { choices: Array<{ delta: { content?: string } }>; usage?: { completion_tokens: number } | null };
        if (data.choices[0]?.delta.content) {
          last = performance.now() - started;
          first ||= last;
        }
        if (data.usage) count = data.usage.completion_tokens;
      }
    }
    return rates(count, first, last, performance.now() - started);
  };
  try {
    await direct(0);
    await overHttp(0);
    await overHttp(0, floor.url);
    const sides = { direct: [] as Rates[], http: [] as Rates[], floor: [] as Rates[] };
    for (let i = 0; i < TEXT_ROUNDS; i++) {
      sides.direct.push(await direct(i + 1));
      sides.http.push(await overHttp(i + 1));
      sides.floor.push(await overHttp(i + 1, floor.url));
    }
    const [d, h] = [sides.direct, sides.http];
    const tokens = `${median(h.map((r) => r.count))}/${median(d.map((r) => r.count))} tokens`;
    const ttftD = median(d.map((r) => r.ttft));
    const ttftH = median(h.map((r) => r.ttft));
    const ttftFloor = median(sides.floor.map((r) => r.ttft));
    // The floor bounds the ratio any runtime over HTTP can reach: the engine's time over the engine's plus the floor.
    const bound = ttftD / (ttftD + ttftFloor);
    return [
      {
        ...atLeast(`runtime vs engine: text tokens/s after the first (${tokens}, 1 thread)`, median(h.map((r) => r.tps)), "node-llama-cpp in-process", median(d.map((r) => r.tps)), 0.95, "tok/s"),
        // End to end (the first token's wait included) for reference; the first token is its own figure below.
        comparison: `node-llama-cpp in-process ${median(d.map((r) => r.tps)).toFixed(1)} tok/s (end to end: runtime ${median(h.map((r) => r.endToEnd)).toFixed(0)}, in-process ${median(d.map((r) => r.endToEnd)).toFixed(0)} tok/s)`,
      },
      // Time to first token is a time: the engine's over the runtime's. The goal is 0.95 of the best
      // ratio HTTP allows in this run (issue 28): the runtime adds at most ~5% beyond what the floor adds.
      {
        figure: "runtime vs engine: text time to first token",
        svc: `${ttftH.toFixed(2)} ms`,
        comparison: `node-llama-cpp in-process ${ttftD.toFixed(2)} ms; HTTP floor ${ttftFloor.toFixed(2)} ms (at best ${bound.toFixed(2)} over HTTP)`,
        ratio: ttftD / ttftH,
        goal: `≥ ${(0.95 * bound).toFixed(2)} (0.95 of the floor's ${bound.toFixed(2)})`,
        met: ttftD / ttftH >= 0.95 * bound,
      },
    ];
  } finally {
    await runtime.stop();
    await floor.stop();
    await context.dispose();
    await model.dispose();
  }
}

async function speech(modelDir: string, dir: string): Promise<Row[]> {
  aptInstall("espeak-ng", ["espeak-ng"]);
  const spoken = join(dir, "spoken.wav");
  const result = Bun.spawnSync(["espeak-ng", "-v", "en", "-w", spoken, "The quick brown fox jumps over the lazy dog, and then it runs far away into the forest."]);
  if (result.exitCode !== 0) throw new Error(`espeak-ng: ${result.stderr}`);
  const file = join(dir, "spoken-16k.wav");
  writeFileSync(file, wav16k(resampleTo16k(decodeWav(new Uint8Array(readFileSync(spoken))))));
  const whisper = await initWhisper({ filePath: fileIn(modelDir, ".bin"), useGpu: false });
  const runtime = await startRuntime("speech-recognition", modelDir);
  const bytes = readFileSync(file);
  const direct = async () => {
    const started = performance.now();
    await whisper.transcribeFile(file, { language: "en", maxThreads: 1, temperature: 0, temperatureInc: 0 }).promise;
    return performance.now() - started;
  };
  const overHttp = async () => {
    const form = new FormData();
    form.append("file", new Blob([bytes], { type: "audio/wav" }), "spoken.wav");
    form.append("model", "whisper");
    const started = performance.now();
    const response = await fetch(`${runtime.url}/v1/audio/transcriptions`, { method: "POST", body: form });
    if (!response.ok) throw new Error(`transcription answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    return performance.now() - started;
  };
  try {
    await direct();
    await overHttp();
    const [d, h]: number[][] = [[], []];
    for (let i = 0; i < SPEECH_ROUNDS; i++) {
      d.push(await direct());
      h.push(await overHttp());
    }
    return [atLeast("runtime vs engine: speech transcriptions/s", 1000 / median(h), "whisper.node transcribeFile", 1000 / median(d), 0.95, "/s")];
  } finally {
    await runtime.stop();
    await whisper.release();
  }
}

export async function runtimeVsEngine(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-runtime-"));
  try {
    const models = makeTinyModels(join(dir, "cache"));
    return [...(await text(models.textGeneration)), ...(await speech(models.speechRecognition, dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
