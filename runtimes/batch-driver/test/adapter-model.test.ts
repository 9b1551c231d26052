/**
 * `--model NAME`: a batch job of a LoRA adapter names the adapter in every request (chat files and
 * OpenAI batch lines alike), so the runtime answers with the adapter's weights rather than the base's;
 * a runtime that does not list the adapter ends the job before any input is sent.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDriverArgs, runDriver, type DriverOptions } from "../src";

let server: ReturnType<typeof Bun.serve>;
let work: string;
const named: string[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "svc-batch-adapter-"));
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/health") return new Response("ok");
      if (path === "/v1/models") return Response.json({ object: "list", data: [{ id: "acme/base" }, { id: "acme/lora", parent: "acme/base" }] });
      const body = (await request.json()) as { model: string; messages: { content: string }[] };
      named.push(body.model);
      return Response.json({ model: body.model, choices: [{ message: { role: "assistant", content: `${body.model} read ${body.messages.at(-1)!.content}` } }] });
    },
  });
});
afterAll(() => {
  server.stop(true);
  rmSync(work, { recursive: true, force: true });
});

const options = (overrides: Partial<DriverOptions> & { stateDir: string }): DriverOptions => ({
  ...parseDriverArgs(["--task", "chat", "--input-dir", "/x", "--output-dir", "/y", "--runtime-url", server.url.origin]),
  idleTimeoutMs: 0,
  progressFile: join(overrides.stateDir, "progress.json"),
  ...overrides,
});
const quiet = () => {};

test("--model is parsed, and left out it is unset", () => {
  const given = ["--task", "chat", "--input-dir", "/x", "--output-dir", "/y", "--runtime-url", "http://127.0.0.1:1"];
  expect(parseDriverArgs([...given, "--model", "acme/lora"]).model).toBe("acme/lora");
  expect(parseDriverArgs(given).model).toBeUndefined();
});

test("chat files and OpenAI batch lines name the adapter, not the base the runtime lists first", async () => {
  const inputDir = join(work, "in");
  mkdirSync(inputDir);
  writeFileSync(join(inputDir, "a.txt"), "alpha");
  const outputDir = join(work, "out");
  named.length = 0;
  expect(await runDriver(options({ inputDir, outputDir, stateDir: join(outputDir, ".svc-batch"), model: "acme/lora" }), new AbortController().signal, quiet)).toBe("finished");
  expect(readFileSync(join(outputDir, "a.txt"), "utf8")).toBe("acme/lora read alpha");

  const input = join(work, "requests.jsonl");
  const line = (id: string, model: string) => JSON.stringify({ custom_id: id, method: "POST", url: "/v1/chat/completions", body: { model, messages: [{ role: "user", content: id }] } });
  writeFileSync(input, `${line("r1", "acme/lora")}\n${line("r2", "acme/base")}\n`);
  const output = join(work, "results.jsonl");
  expect(await runDriver(options({ task: "openai", input, output, stateDir: join(work, ".results.svc-batch"), model: "acme/lora" }), new AbortController().signal, quiet)).toBe("finished");
  const bodies = readFileSync(output, "utf8").trim().split("\n").map((text) => JSON.parse(text).response.body.model);
  expect(bodies).toEqual(["acme/lora", "acme/lora"]);
  expect(named).toEqual(["acme/lora", "acme/lora", "acme/lora"]);

  named.length = 0;
  const plain = join(work, "plain-out");
  await runDriver(options({ inputDir, outputDir: plain, stateDir: join(plain, ".svc-batch") }), new AbortController().signal, quiet);
  expect(named).toEqual(["acme/base"]);
});

test("an adapter the runtime does not serve fails the job before any input is sent, naming what it serves", async () => {
  const inputDir = join(work, "in-missing");
  mkdirSync(inputDir);
  writeFileSync(join(inputDir, "a.txt"), "alpha");
  const outputDir = join(work, "out-missing");
  named.length = 0;
  const run = runDriver(options({ inputDir, outputDir, stateDir: join(outputDir, ".svc-batch"), model: "acme/other" }), new AbortController().signal, quiet);
  await expect(run).rejects.toThrow("the runtime does not serve acme/other: it serves acme/base, acme/lora");
  expect(named).toEqual([]);
  expect(JSON.parse(readFileSync(join(outputDir, ".svc-batch", "progress.json"), "utf8"))).toMatchObject({ phase: "failed", message: "the runtime does not serve acme/other: it serves acme/base, acme/lora" });
});
