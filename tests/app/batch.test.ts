/**
 * Batch jobs on Docker, end to end with the tiny models: a folder of spoken WAVs transcribed
 * (stopped mid-way and resumed without redoing finished files, a corrupt WAV recorded as a
 * failure, files added mid-run processed), text files through chat (the app killed with -9 and
 * started again mid-way) and embed, and an OpenAI batch file whose results parse in OpenAI's format.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SvcClient } from "@svc/client";
import type { BatchRecord, BatchStatus } from "@svc/contracts";
import { buildRuntimeImages, ensureDocker, eventually, registerTinyModels, runSvc, sh, SPEECH_MODEL, startSvc, tempHome, TEXT_MODEL, type RunningSvc } from "@svc/testing";

/** The issue asks for 40 of each; the tiny models take well under a second per file. */
const WAVS = 40;
const TEXTS = 40;
const LONG_WAVS = 8;
const JOB_MS = 240_000;

let runtimes: ReturnType<typeof buildRuntimeImages>;
let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;
let work: string;

const connect = (running: RunningSvc) => {
  app = running;
  client = new SvcClient({ baseUrl: app.url });
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) };
};

beforeAll(async () => {
  ensureDocker();
  runtimes = buildRuntimeImages();
  // A process group of its own, so the kill -9 test can end the whole app at once.
  connect(await startSvc({ env: runtimes.env, wrapper: ["setsid"] }));
  const modelsHome = await registerTinyModels(client, app.home);
  work = join(modelsHome, "batch");
  mkdirSync(join(work, "audio", "more"), { recursive: true });
  mkdirSync(join(work, "late"), { recursive: true });
  mkdirSync(join(work, "texts"), { recursive: true });
  const spoken = ["hello world", "the quick brown fox", "batch jobs run whole folders", "one two three four", "good morning"];
  for (let i = 0; i < WAVS; i++) {
    const folder = i % 10 === 9 ? join(work, "audio", "more") : join(work, "audio");
    sh(["espeak-ng", "-w", join(folder, `clip-${String(i).padStart(2, "0")}.wav`), `${spoken[i % spoken.length]} number ${i}`]);
  }
  writeFileSync(join(work, "audio", "corrupt.wav"), "RIFF not really a wave file");
  for (let i = 0; i < 3; i++) sh(["espeak-ng", "-w", join(work, "late", `late-${i}.wav`), `added while running ${i}`]);
  mkdirSync(join(work, "long"), { recursive: true });
  sh(["espeak-ng", "-w", join(work, "long", "long-0.wav"), [...Array(25).keys()].map((i) => `this is sentence number ${i} of a long recording.`).join(" ")]);
  for (let i = 1; i < LONG_WAVS; i++) copyFileSync(join(work, "long", "long-0.wav"), join(work, "long", `long-${i}.wav`));
  for (let i = 0; i < TEXTS; i++) writeFileSync(join(work, "texts", `doc-${String(i).padStart(2, "0")}.txt`), `Document ${i}. The quick brown fox jumps over the lazy dog ${i} times.`);
}, 600_000);

afterAll(async () => {
  for (const batch of (await client?.batches.list({ all: true }).catch(() => [])) ?? []) await client.batches.remove(batch.id, { force: true }).catch(() => {});
  await app?.cleanup();
});

const reaches = (id: string, wanted: BatchStatus, ms = JOB_MS) =>
  eventually(async () => (await client.batches.get(id)).status === wanted, ms, `batch ${id} to be ${wanted}`);

/** Every file under `dir` (the state folder left out), by path relative to it, with its mtime. */
function outputs(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name === ".svc-batch") continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.set(relative(dir, path), statSync(path).mtimeMs);
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

/** Polls `svc batch ls --json` until `until` holds, collecting the done counts it showed for job `id`. */
async function watchProgress(id: string, until: (record: BatchRecord) => boolean, seen: Set<number>, ms = JOB_MS) {
  await eventually(async () => {
    const ls = await runSvc(["batch", "ls", "--all", "--json"], env);
    const record = (JSON.parse(ls.stdout) as BatchRecord[]).find((b) => b.id === id);
    if (record?.progress) seen.add(record.progress.done);
    return record !== undefined && until(record);
  }, ms, `batch ${id} progress`);
}

describe("batch jobs on Docker", () => {
  test("a task the model cannot serve is refused with the tasks it can; bad params and folders name what to fix", async () => {
    const refused = await runSvc(["batch", "run", "transcribe", TEXT_MODEL, "--input-dir", join(work, "texts"), "--output-dir", join(work, "nope")], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("cannot transcribe");
    expect(refused.stderr).toContain("chat, embed, openai");
    const speech = await client.batches.run({ task: "chat", model: SPEECH_MODEL, inputDir: join(work, "texts"), outputDir: join(work, "nope") }).catch((error) => error);
    expect(speech.status).toBe(400);
    expect(speech.message).toContain("Its batch tasks: transcribe");
    const params = await client.batches.run({ task: "transcribe", model: SPEECH_MODEL, inputDir: join(work, "audio"), outputDir: join(work, "nope"), params: { colour: "red" } }).catch((error) => error);
    expect(params.status).toBe(400);
    expect(params.message).toContain("--params colour");
    const same = await client.batches.run({ task: "chat", model: TEXT_MODEL, inputDir: join(work, "texts"), outputDir: join(work, "texts") }).catch((error) => error);
    expect(same.status).toBe(400);
    expect(same.message).toContain("--output-dir");
    // No job sees the system's folders, whatever svc may read: refused before anything starts, saying why.
    for (const [inputDir, why] of [["/etc", "--input-dir /etc: it is in /etc, which holds the system's own files and no job may see"], ["/", "--input-dir /: it is the whole filesystem, which no job may see"]]) {
      const refused = await runSvc(["batch", "run", "chat", TEXT_MODEL, "--input-dir", inputDir, "--output-dir", join(work, "nope")], env);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(why);
    }
    const own = await client.batches.run({ task: "chat", model: TEXT_MODEL, inputDir: join(work, "texts"), outputDir: join(app.home, "data", "out") }).catch((error) => error);
    expect(own.status).toBe(400);
    expect(own.message).toContain(`--output-dir ${join(app.home, "data", "out")}: it is in svc's own databases and keys`);
    expect(existsSync(join(work, "nope"))).toBe(false);
    const dry = await runSvc(["batch", "run", "chat", TEXT_MODEL, "--input-dir", join(work, "texts"), "--output-dir", join(work, "dry"), "--dry-run"], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("runtimes/batch-driver/src/main.ts");
    expect(dry.stdout).toContain("runtimes/text-generation/src/main.ts");
    expect(existsSync(join(work, "dry"))).toBe(false);
  });

  test("transcribe: progress moves, stop then resume redoes no finished file, the corrupt WAV is a failure, files added mid-run are processed", async () => {
    const out = join(work, "transcripts");
    const run = await runSvc(
      ["batch", "run", "transcribe", SPEECH_MODEL, "--input-dir", join(work, "audio"), "--output-dir", out, "--params", '{"language":"en","format":"srt"}', "--concurrency", "2", "--idle-timeout", "20", "--name", "interviews"],
      env,
    );
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    const seen = new Set<number>();
    await watchProgress(id, (record) => record.status === "RUNNING" && (record.progress?.done ?? 0) >= 10, seen);

    const stop = await runSvc(["batch", "stop", id.slice(0, 8)], env);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain("Stopped batch job");
    expect((await client.batches.get(id)).status).toBe("STOPPED");
    const before = outputs(out);
    const finished = [...before.keys()].filter((path) => path.endsWith(".json"));
    expect(finished.length).toBeGreaterThanOrEqual(10);
    expect(finished.length).toBeLessThan(WAVS);
    // No half-written output: each marker is whole JSON, with its transcript beside it.
    for (const path of finished) {
      expect(JSON.parse(readFileSync(join(out, path), "utf8")).segments).toBeArray();
      expect(before.has(path.replace(/\.json$/, ".txt"))).toBe(true);
    }

    const resume = await runSvc(["batch", "resume", "interviews"], env);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain("allocation 2");
    // Once everything there is done, files copied in are picked up before the idle timeout ends the job.
    await watchProgress(id, (record) => record.status === "RUNNING" && record.progress !== null && record.progress.done + record.progress.failed === WAVS + 1, seen);
    for (const name of readdirSync(join(work, "late"))) copyFileSync(join(work, "late", name), join(work, "audio", name));
    await reaches(id, "COMPLETED");
    expect(seen.size).toBeGreaterThan(2);

    const after = outputs(out);
    for (const path of finished) expect(after.get(path)).toBe(before.get(path)!);
    const inputs = [...Array(WAVS).keys()].map((i) => `${i % 10 === 9 ? "more/" : ""}clip-${String(i).padStart(2, "0")}`).concat([0, 1, 2].map((i) => `late-${i}`));
    for (const stem of inputs) {
      for (const ext of [".txt", ".json", ".srt"]) expect(after.has(`${stem}${ext}`)).toBe(true);
    }
    expect(after.has("corrupt.json")).toBe(false);
    expect(readFileSync(join(out, "clip-00.srt"), "utf8")).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n/);

    const details = await client.batches.get(id);
    expect(details.allocations).toBe(2);
    expect(details.progress).toMatchObject({ phase: "finished", total: WAVS + 4, done: WAVS + 3, failed: 1 });
    expect(details.failures).toEqual([{ path: "corrupt.wav", status: "failed", reason: expect.stringContaining("HTTP 415") }]);
    expect(details.files.filter((f) => f.status === "done")).toHaveLength(WAVS + 3);
    const shown = await runSvc(["batch", "details", id.slice(0, 8)], env);
    expect(shown.stdout).toContain("corrupt.wav");
    expect(shown.stdout).toContain("HTTP 415");
    const ls = await runSvc(["batch", "ls", "--all"], env);
    expect(ls.stdout).toMatch(/^BATCH ID\s+TASK\s+MODEL\s+STATUS\s+PROGRESS\s+FILES\/MIN\s+ETA\s+ALLOCATIONS\s+NAME\s+PROFILE/);
    expect(ls.stdout).toContain(`${WAVS + 3}/${WAVS + 4} ██████████ 1 failed`);

    // --retry-failed runs the failed input again (it fails again, for the same reason); nothing else is redone.
    await client.batches.resume(id, { retryFailed: true });
    await reaches(id, "COMPLETED");
    const retried = await client.batches.get(id);
    expect(retried.allocations).toBe(3);
    expect(retried.failures.map((f) => f.path)).toEqual(["corrupt.wav"]);
    for (const [path, mtime] of after) expect(outputs(out).get(path)).toBe(mtime);
  }, 600_000);

  test("chat: 40 text files, each answered under the prompt template", async () => {
    const out = join(work, "answers");
    const { batch } = await client.batches.run({
      task: "chat",
      model: TEXT_MODEL,
      inputDir: join(work, "texts"),
      outputDir: out,
      params: { prompt: "Summarise in a few words:\n{text}", system: "You are terse.", max_tokens: 24, temperature: 0 },
      idleTimeout: 1,
    });
    await reaches(batch!.id, "COMPLETED");
    const files = outputs(out);
    expect([...files.keys()].sort()).toEqual([...Array(TEXTS).keys()].map((i) => `doc-${String(i).padStart(2, "0")}.txt`));
    expect((await client.batches.get(batch!.id)).failures).toEqual([]);
  }, 300_000);

  test("kill -9 of the whole app mid-job, then svc start: the job finishes without redoing finished files", async () => {
    // Long recordings (a few seconds each to transcribe), so the job is still running when the app is killed.
    const out = join(work, "long-transcripts");
    const { batch } = await client.batches.run({ task: "transcribe", model: SPEECH_MODEL, inputDir: join(work, "long"), outputDir: out, concurrency: 1, idleTimeout: 1 });
    const id = batch!.id;
    await eventually(async () => ((await client.batches.get(id)).progress?.done ?? 0) >= 2, JOB_MS, "a few transcripts");
    const home = app.home;
    process.kill(-app.proc.pid!, "SIGKILL");
    await app.proc.exited;
    const before = outputs(out);
    expect(before.size).toBeLessThan(LONG_WAVS * 2);
    connect(await startSvc({ env: runtimes.env, home }));
    await reaches(id, "COMPLETED");
    const after = outputs(out);
    expect(after.size).toBe(LONG_WAVS * 2);
    for (const [path, mtime] of before) expect(after.get(path)).toBe(mtime);
    const details = await client.batches.get(id);
    expect(details.allocations).toBe(1);
    expect(details.failures).toEqual([]);
  }, 600_000);

  test("embed writes one vector per file, over a folder of data outside svc's home (nothing to allow first)", async () => {
    const data = join(tempHome("svc-batch-data-"), "data");
    mkdirSync(join(data, "in"), { recursive: true });
    for (const name of readdirSync(join(work, "texts"))) copyFileSync(join(work, "texts", name), join(data, "in", name));
    const out = join(data, "out");
    const { batch } = await client.batches.run({ task: "embed", model: TEXT_MODEL, inputDir: join(data, "in"), outputDir: out, inputExt: ["txt"], idleTimeout: 0 });
    await reaches(batch!.id, "COMPLETED");
    const files = [...outputs(out).keys()];
    expect(files).toHaveLength(TEXTS);
    const vector = JSON.parse(readFileSync(join(out, "doc-00.json"), "utf8"));
    expect(vector.embedding.length).toBeGreaterThan(0);
    expect(vector.embedding.every((x: unknown) => typeof x === "number")).toBe(true);
  }, 300_000);

  test("an OpenAI batch file (chat, completions and embeddings lines) gives results in OpenAI's batch output format", async () => {
    const requests = join(work, "requests.jsonl");
    const lines = [
      ...[0, 1, 2].map((i) => ({ custom_id: `chat-${i}`, method: "POST", url: "/v1/chat/completions", body: { model: TEXT_MODEL, messages: [{ role: "user", content: `Hello ${i}` }], max_tokens: 8 } })),
      ...[0, 1].map((i) => ({ custom_id: `embed-${i}`, method: "POST", url: "/v1/embeddings", body: { model: TEXT_MODEL, input: [`first ${i}`, `second ${i}`] } })),
      { custom_id: "complete-0", method: "POST", url: "/v1/completions", body: { model: TEXT_MODEL, prompt: "Once upon", max_tokens: 8 } },
      { custom_id: "wrong-url", method: "POST", url: "/v1/images/generations", body: {} },
    ];
    writeFileSync(requests, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const results = join(work, "openai", "results.jsonl");
    const run = await runSvc(["batch", "run", TEXT_MODEL, "--input", requests, "--output", results], env);
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    await reaches(id, "COMPLETED");
    const output = readFileSync(results, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(output.map((line) => line.custom_id).sort()).toEqual(lines.map((line) => line.custom_id).sort());
    for (const line of output) {
      expect(line.id).toMatch(/^batch_req_/);
      expect(Object.keys(line).sort()).toEqual(["custom_id", "error", "id", "response"]);
      if (line.custom_id === "wrong-url") {
        expect(line.response).toBeNull();
        expect(line.error).toEqual({ code: "invalid_request", message: expect.stringContaining("/v1/chat/completions") });
        continue;
      }
      expect(line.error).toBeNull();
      expect(line.response.status_code).toBe(200);
      expect(line.response.request_id).toBeString();
      const body = line.response.body;
      if (line.custom_id.startsWith("chat")) expect(body.choices[0].message.role).toBe("assistant");
      else if (line.custom_id.startsWith("embed")) {
        expect(body.object).toBe("list");
        expect(body.data).toHaveLength(2);
        expect(body.data[0].embedding.length).toBeGreaterThan(0);
      } else expect(body.object).toBe("text_completion");
    }
    const details = await client.batches.get(id);
    expect(details.failures.map((f) => f.path)).toEqual(["wrong-url"]);
    // Resuming a finished file sends nothing again: the results stay as they were.
    const before = readFileSync(results, "utf8");
    await client.batches.resume(id);
    await reaches(id, "COMPLETED");
    expect(readFileSync(results, "utf8")).toBe(before);
  }, 300_000);
});
