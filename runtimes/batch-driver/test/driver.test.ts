/**
 * The batch driver against a stand-in runtime (Bun.serve answering like the svc runtimes), so each
 * rule is seen alone and fast: atomic outputs, skipping what is done, failures with their reason,
 * inputs that arrive while it waits (once they stopped changing), --retry-failed, a stop, and OpenAI
 * batch files (a line cut by a kill, custom_ids answered before).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDriverArgs, runDriver, type DriverOptions } from "../src";
import { listInputs, SETTLE_MS } from "../src/input-folder";

let server: ReturnType<typeof Bun.serve>;
let work: string;
const seen: string[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "svc-batch-driver-"));
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/health") return new Response("ok");
      if (request.headers.get("authorization") !== "Bearer k") return Response.json({ error: { message: "bad key" } }, { status: 401 });
      if (path === "/v1/chat/completions") {
        const body = (await request.json()) as { messages: { content: string }[] };
        const text = body.messages.at(-1)!.content;
        seen.push(text);
        if (text.includes("REFUSE")) return Response.json({ error: { message: "the prompt is too long" } }, { status: 400 });
        return Response.json({ object: "chat.completion", choices: [{ message: { role: "assistant", content: `answer to ${text}` } }] });
      }
      if (path === "/v1/embeddings") return Response.json({ object: "list", model: "m", data: [{ object: "embedding", index: 0, embedding: [0.5, 0.25] }] });
      return Response.json({ error: { message: `no route ${path}` } }, { status: 404 });
    },
  });
});
afterAll(() => {
  server.stop(true);
  rmSync(work, { recursive: true, force: true });
});

function folder(name: string, files: Record<string, string>): string {
  const dir = join(work, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const options = (overrides: Partial<DriverOptions>): DriverOptions => ({
  ...parseDriverArgs(["--task", "chat", "--input-dir", "/x", "--output-dir", "/y", "--runtime-url", server.url.origin]),
  runtimeKey: "k",
  idleTimeoutMs: 0,
  ...overrides,
});
const quiet = () => {};
const stateOf = (dir: string) => JSON.parse(readFileSync(join(dir, ".svc-batch", "state.json"), "utf8"));
const progressOf = (dir: string) => JSON.parse(readFileSync(join(dir, ".svc-batch", "progress.json"), "utf8"));

test("chat: each text under the template, outputs at the inputs' paths, a refusal recorded with its reason, done outputs skipped on the next run", async () => {
  const inputDir = folder("chat-in", { "a.txt": "alpha", "sub/b.md": "beta", "c.txt": "REFUSE me", "skip.bin": "x", ".hidden.txt": "h" });
  const outputDir = join(work, "chat-out");
  const run = () => runDriver(options({ inputDir, outputDir, stateDir: join(outputDir, ".svc-batch"), progressFile: join(outputDir, ".svc-batch", "progress.json"), params: { prompt: "Sum up: {text}" } }), new AbortController().signal, quiet);
  expect(await run()).toBe("finished");
  expect(readFileSync(join(outputDir, "a.txt"), "utf8")).toBe("answer to Sum up: alpha");
  expect(readFileSync(join(outputDir, "sub", "b.txt"), "utf8")).toBe("answer to Sum up: beta");
  expect(existsSync(join(outputDir, "c.txt"))).toBe(false);
  expect(stateOf(outputDir).failures["c.txt"].reason).toBe("HTTP 400: the prompt is too long");
  expect(stateOf(outputDir).files).toEqual({ "a.txt": "done", "c.txt": "failed", "sub/b.md": "done" });
  expect(progressOf(outputDir)).toMatchObject({ phase: "finished", total: 3, done: 2, failed: 1 });
  expect(readdirSync(join(outputDir, ".svc-batch", "tmp"))).toEqual([]);

  const before = statSync(join(outputDir, "a.txt")).mtimeMs;
  const asked = seen.length;
  expect(await run()).toBe("finished");
  expect(seen.length).toBe(asked); // nothing sent again: done outputs skipped, the failure kept
  expect(statSync(join(outputDir, "a.txt")).mtimeMs).toBe(before);
  expect(stateOf(outputDir).failures["c.txt"]).toBeDefined();

  writeFileSync(join(inputDir, "c.txt"), "now fine");
  const retried = await runDriver(options({ inputDir, outputDir, stateDir: join(outputDir, ".svc-batch"), progressFile: join(outputDir, ".svc-batch", "progress.json"), retryFailed: true }), new AbortController().signal, quiet);
  expect(retried).toBe("finished");
  expect(readFileSync(join(outputDir, "c.txt"), "utf8")).toBe("answer to now fine");
  expect(stateOf(outputDir).failures).toEqual({});
}, 30_000);

test("inputs that arrive while the driver waits are processed before its idle timeout ends it", async () => {
  const inputDir = folder("late-in", { "first.txt": "one" });
  const outputDir = join(work, "late-out");
  const running = runDriver(options({ task: "embed", inputDir, outputDir, stateDir: join(outputDir, ".svc-batch"), progressFile: join(outputDir, ".svc-batch", "progress.json"), idleTimeoutMs: 3000 }), new AbortController().signal, quiet);
  while (!existsSync(join(outputDir, "first.json"))) await Bun.sleep(20);
  writeFileSync(join(inputDir, "second.txt"), "two");
  expect(await running).toBe("finished");
  expect(JSON.parse(readFileSync(join(outputDir, "second.json"), "utf8"))).toEqual({ input: "second.txt", model: "m", embedding: [0.5, 0.25] });
}, 30_000);

test("a stop ends it at once with the phase stopped", async () => {
  const inputDir = folder("stop-in", { "a.txt": "a" });
  const outputDir = join(work, "stop-out");
  const controller = new AbortController();
  const running = runDriver(options({ inputDir, outputDir, stateDir: join(outputDir, ".svc-batch"), progressFile: join(outputDir, ".svc-batch", "progress.json"), idleTimeoutMs: 600_000 }), controller.signal, quiet);
  while (!existsSync(join(outputDir, "a.txt"))) await Bun.sleep(20);
  controller.abort();
  expect(await running).toBe("stopped");
  expect(progressOf(outputDir).phase).toBe("stopped");
}, 30_000);

test("OpenAI batch: a line cut by a kill is dropped and sent again, answered custom_ids are not, bad lines get error lines", async () => {
  const input = join(work, "requests.jsonl");
  const output = join(work, "openai", "results.jsonl");
  const line = (id: string, url = "/v1/chat/completions") => JSON.stringify({ custom_id: id, method: "POST", url, body: { messages: [{ role: "user", content: id }] } });
  writeFileSync(input, [line("one"), line("two"), line("three", "/v1/files"), "{oops", line("one")].join("\n"));
  mkdirSync(join(work, "openai"));
  writeFileSync(output, `${JSON.stringify({ id: "batch_req_1", custom_id: "one", response: { status_code: 200, request_id: "r", body: { kept: true } }, error: null })}\n`);
  appendFileSync(output, '{"id":"batch_req_2","custom_id":"two","resp');
  const stateDir = join(work, "openai", ".results.jsonl.svc-batch");
  expect(await runDriver(options({ task: "openai", input, output, inputDir: undefined, outputDir: undefined, stateDir, progressFile: join(stateDir, "progress.json") }), new AbortController().signal, quiet)).toBe("finished");
  const lines = readFileSync(output, "utf8").trimEnd().split("\n").map((text) => JSON.parse(text));
  expect(lines.map((l) => l.custom_id).sort()).toEqual(["line-4", "line-5", "one", "three", "two"]);
  expect(lines.find((l) => l.custom_id === "one").response.body).toEqual({ kept: true });
  expect(lines.find((l) => l.custom_id === "two").response).toMatchObject({ status_code: 200, body: { choices: [{ message: { content: "answer to two" } }] } });
  expect(lines.find((l) => l.custom_id === "three")).toMatchObject({ response: null, error: { code: "invalid_request" } });
  expect(lines.find((l) => l.custom_id === "line-5").error.message).toContain("custom_id one is used by an earlier line");
  expect(JSON.parse(readFileSync(join(stateDir, "progress.json"), "utf8"))).toMatchObject({ phase: "finished", total: 5, done: 2, failed: 3 });
});

test("arguments: the task's folders are required, params must be a JSON object, unknown params are refused before anything runs", async () => {
  expect(() => parseDriverArgs(["--task", "chat", "--input-dir", "/a", "--runtime-url", "http://x"])).toThrow("--task chat needs --input-dir and --output-dir");
  expect(() => parseDriverArgs(["--task", "openai", "--input", "/a", "--runtime-url", "http://x"])).toThrow("--task openai needs --input");
  expect(() => parseDriverArgs(["--task", "chat", "--input-dir", "/a", "--output-dir", "/b", "--params", "[1]", "--runtime-url", "http://x"])).toThrow("--params: give a JSON object");
  expect(() => parseDriverArgs(["--task", "chat", "--input-dir", "/a", "--output-dir", "/b"])).toThrow("give the runtime's command after --");
  expect(parseDriverArgs(["--task", "transcribe", "--input-dir", "/a", "--output-dir", "/b/", "--", "bun", "main.ts"])).toMatchObject({
    stateDir: "/b/.svc-batch",
    extensions: [".wav", ".mp3", ".flac", ".ogg", ".m4a", ".webm"],
    runtime: ["bun", "main.ts"],
    idleTimeoutMs: 120_000,
  });
  await expect(runDriver(options({ params: { colour: "red" } }), new AbortController().signal, quiet)).rejects.toThrow("--params colour: chat takes prompt, system, max_tokens, temperature, seed");
});

test("a file changed in the last seconds (still being copied in) is left for a later scan, then taken", () => {
  const dir = folder("settle-in", { "old.txt": "o", "fresh.txt": "f" });
  const fresh = statSync(join(dir, "fresh.txt")).mtimeMs;
  utimesSync(join(dir, "old.txt"), new Date(fresh - 60_000), new Date(fresh - 60_000));
  expect(listInputs(dir, [".txt"], undefined, fresh + 500)).toEqual({ inputs: ["old.txt"], settling: 1 });
  expect(listInputs(dir, [".txt"], undefined, fresh + SETTLE_MS)).toEqual({ inputs: ["fresh.txt", "old.txt"], settling: 0 });
});

test("a request the runtime never answered (it is going away) is not recorded as the input's failure", async () => {
  const inputDir = folder("gone-in", { "a.txt": "a" });
  utimesSync(join(inputDir, "a.txt"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const outputDir = join(work, "gone-out");
  // A runtime that is healthy until the first request, which it drops without an answer, as one being ended does.
  let going = false;
  const dying = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket, data) {
        if (!going && data.toString().startsWith("GET /health")) socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
        else going = true;
        socket.end();
      },
    },
  });
  try {
    const run = runDriver(options({ inputDir, outputDir, stateDir: join(outputDir, ".svc-batch"), progressFile: join(outputDir, ".svc-batch", "progress.json"), runtimeUrl: `http://127.0.0.1:${dying.port}` }), new AbortController().signal, quiet);
    await expect(run).rejects.toThrow("the runtime did not answer");
    expect(stateOf(outputDir).failures).toEqual({});
    expect(stateOf(outputDir).files).toEqual({ "a.txt": "pending" });
  } finally {
    dying.stop(true);
  }
}, 60_000);

test("beside vLLM (a stand-in): the key in VLLM_API_KEY, the served model's name in each request, chat, embed and an OpenAI batch file", async () => {
  const standIn = join(import.meta.dir, "..", "..", "..", "tests", "support", "vllm-stand-in.ts");
  const vllm = async (overrides: Partial<DriverOptions> & { stateDir: string }) => {
    const run = { ...options({}), runtimeUrl: undefined, runtimeKey: undefined, runtime: [process.execPath, standIn, "--model", "/models/acme/tiny"], apiKeyVariable: "VLLM_API_KEY", progressFile: join(overrides.stateDir, "progress.json"), ...overrides };
    expect(await runDriver(run, new AbortController().signal, quiet)).toBe("finished");
    return JSON.parse(readFileSync(join(overrides.stateDir, "state.json"), "utf8")).failures;
  };
  const texts = folder("vllm-texts", { "a.txt": "four", "b.md": "sixteen characters" });
  const answers = join(work, "vllm-answers");
  expect(await vllm({ inputDir: texts, outputDir: answers, stateDir: join(answers, ".svc-batch") })).toEqual({});
  expect(readFileSync(join(answers, "a.txt"), "utf8")).toBe("vllm stand-in read 4 characters");
  expect(readFileSync(join(answers, "b.txt"), "utf8")).toBe("vllm stand-in read 18 characters");
  const vectors = join(work, "vllm-vectors");
  expect(await vllm({ task: "embed", inputDir: texts, outputDir: vectors, stateDir: join(vectors, ".svc-batch") })).toEqual({});
  expect(JSON.parse(readFileSync(join(vectors, "a.json"), "utf8"))).toEqual({ input: "a.txt", model: "/models/acme/tiny", embedding: [4, 1] });

  const requests = join(work, "vllm-requests.jsonl");
  const line = (id: string, url: string, body: object) => JSON.stringify({ custom_id: id, method: "POST", url, body });
  writeFileSync(
    requests,
    [
      line("c1", "/v1/chat/completions", { model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] }),
      line("c2", "/v1/completions", { model: "acme/tiny", prompt: "once upon" }),
      line("c3", "/v1/embeddings", { input: "abc" }),
    ].join("\n") + "\n",
  );
  const results = join(work, "vllm-results.jsonl");
  expect(await vllm({ task: "openai", input: requests, output: results, stateDir: join(work, ".vllm-results.svc-batch") })).toEqual({});
  const byId = Object.fromEntries(readFileSync(results, "utf8").trim().split("\n").map((text) => JSON.parse(text)).map((out) => [out.custom_id, out.response]));
  expect(byId.c1).toMatchObject({ status_code: 200, body: { choices: [{ message: { content: "vllm stand-in read 5 characters" } }] } });
  expect(byId.c2).toMatchObject({ status_code: 200, body: { choices: [{ text: "vllm stand-in completed 9 characters" }] } });
  expect(byId.c3).toMatchObject({ status_code: 200, body: { data: [{ embedding: [3, 1] }] } });
});

test("--api-key-variable names the variable the runtime reads its key from (SVC_API_KEY unless given)", () => {
  const base = ["--task", "chat", "--input-dir", "/x", "--output-dir", "/y", "--"];
  expect(parseDriverArgs([...base, "bun", "main.ts"]).apiKeyVariable).toBe("SVC_API_KEY");
  expect(parseDriverArgs(["--api-key-variable", "VLLM_API_KEY", ...base, "python3"]).apiKeyVariable).toBe("VLLM_API_KEY");
  expect(() => parseDriverArgs(["--api-key-variable", "X;id", ...base, "python3"])).toThrow("give an environment variable's name");
});
