/**
 * Batch jobs in the orchestrator, without an engine that runs anything: the Slurm job script of a
 * batch job (the driver from the bundle, every value one word), the progress file read in the
 * same status script as the services', and what each status pass means for a job (a time limit
 * with inputs left is a resubmission, one reached while only waiting is the end).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeEngine } from "@svc/testing";
import { BatchStore } from "../src/db/batch-store";
import { BatchesService } from "../src/batches/service";
import { batchLaunch, type StoredBatchSpec } from "../src/batches/plan";
import type { LaunchSpec } from "../src/engines/engine";
import { EngineError } from "../src/engines/engine-error";
import { batchContainerConfig } from "../src/engines/docker/batch-container";
import { driverOf, renderJobScript } from "../src/engines/slurm/job-script";
import { parseStatusOutput, statusScript } from "../src/engines/slurm/job-status";

const root = mkdtempSync(join(tmpdir(), "svc-batch-jobs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = "0b5e8c1a-7d4f-4c2e-9a61-3f0d2b7e9c10";
const stored = (overrides: Partial<StoredBatchSpec> = {}): StoredBatchSpec => ({
  inputDir: "~/svc/in",
  outputDir: "~/svc/out",
  params: { prompt: "Say $(rm -rf /) `x` 'q' {text}" },
  concurrency: 3,
  idleTimeout: 60,
  job: { time: "5" },
  launch: { image: "svc-text-generation:latest", args: ["--ctx-size", "512"], modelDir: "/shared/cache/models/m" },
  ...overrides,
});
const spec = (retryFailed = false): LaunchSpec => ({
  serviceId: ID,
  name: "b",
  task: "text-generation",
  image: "svc-text-generation:latest",
  args: ["--ctx-size", "512"],
  modelDir: "/shared/cache/models/m",
  job: { time: "5" },
  batch: batchLaunch("chat", stored(), retryFailed),
});
const bundleDir = "~/svc/runtime/v1";
const bare = { runtime: "bare" as const, bundle: { version: "v1", dir: bundleDir, bun: `${bundleDir}/bin/bun`, main: `${bundleDir}/app/runtimes/text-generation/src/main.ts` } };

describe("a batch job's Slurm script", () => {
  test("starts the driver from the bundle before the runtime, every value one word, the progress file in the work folder", () => {
    const script = renderJobScript(spec(true), bare);
    const exec = script.split("\n").find((line) => line.startsWith("exec "))!;
    expect(exec).toStartWith(`exec "$HOME"/svc/runtime/v1/bin/bun "$HOME"/svc/runtime/v1/app/runtimes/batch-driver/src/main.ts --task chat --input-dir "$HOME"/svc/in`);
    expect(exec).toContain(`--params '{"prompt":"Say $(rm -rf /) \`x\` '\\''q'\\'' {text}"}'`);
    expect(exec).toContain("--retry-failed --progress-file progress.json --api-key-variable SVC_API_KEY -- ");
    expect(exec).toEndWith(`"$HOME"/svc/runtime/v1/app/runtimes/text-generation/src/main.ts --model /shared/cache/models/m --ctx-size 512`);
    expect(script).toContain(`mkdir -p "$HOME"/svc/out "$HOME"/svc/out/.svc-batch`);
    expect(script).not.toContain("port_busy");
    // The words as bash reads them: the params arrive whole.
    const words = Bun.spawnSync(["bash", "-c", `${exec.replace(/^exec /, "printf '%s\\0' ")}`], { env: { HOME: "/home/u", PATH: process.env.PATH! } }).stdout.toString().split("\0");
    expect(words[words.indexOf("--params") + 1]).toBe(`{"prompt":"Say $(rm -rf /) \`x\` 'q' {text}"}`);
    expect(words[words.indexOf("--input-dir") + 1]).toBe("/home/u/svc/in");
  });

  test("beside an Apptainer image or vLLM: the driver from the bundle starts the server as a service's job would, its key in that server's variable", () => {
    const driver = driverOf(bare.bundle, "text-generation");
    const apptainer = renderJobScript(spec(), { runtime: "apptainer", sif: "/images/x.sif", prepare: [], driver });
    const exec = apptainer.split("\n").find((line) => line.startsWith("exec "))!;
    expect(exec).toStartWith(`exec "$HOME"/svc/runtime/v1/bin/bun "$HOME"/svc/runtime/v1/app/runtimes/batch-driver/src/main.ts --task chat`);
    expect(exec).toContain("--api-key-variable SVC_API_KEY -- apptainer run --bind /shared/cache/models/m:/shared/cache/models/m:ro /images/x.sif --model /shared/cache/models/m --ctx-size 512");
    const vllm = renderJobScript({ ...spec(), image: "vllm/vllm-openai:latest", job: { time: "5", gres: 1 } }, { runtime: "bare", driver });
    expect(vllm).toContain("#SBATCH --gres=gpu:1");
    expect(vllm).toContain('export PATH="$HOME/.local/bin:$PATH"');
    expect(vllm.split("\n").find((line) => line.startsWith("exec "))).toContain("--api-key-variable VLLM_API_KEY -- python3 -m vllm.entrypoints.openai.api_server --model /shared/cache/models/m --ctx-size 512");
  });
});

test("on Docker a batch job beside vLLM is refused by the engine, saying what to do (vLLM's image has no driver)", () => {
  const vllm = { ...spec(), image: "vllm/vllm-openai:latest", batch: batchLaunch("chat", stored({ inputDir: "/data/in", outputDir: "/data/out" }), false) };
  const options = { network: "host" as const, homeLabel: "h", user: "1000:1000" };
  expect(() => batchContainerConfig(vllm, options)).toThrow(EngineError);
  expect(() => batchContainerConfig(vllm, options)).toThrow("vLLM's and SGLang's images have no batch driver. Drop --gres, or run the job on a slurm profile");
  expect(batchContainerConfig({ ...vllm, image: "svc-text-generation:latest" }, options).body.Cmd).toContain("/data/in");
});

test("the status script reads each job's progress file in the same pass", () => {
  const work = join(root, "job-a");
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "progress.json"), '{"phase":"running","total":4,"done":1}\n');
  const bin = join(root, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "squeue"), "#!/bin/sh\necho '7|RUNNING|None'\n", { mode: 0o755 });
  const proc = Bun.spawnSync(["sh", "-s"], { stdin: new TextEncoder().encode(statusScript([{ jobId: "7", workDir: work }, { jobId: "8", workDir: join(root, "none") }])), env: { PATH: `${bin}:/usr/bin:/bin` } });
  const statuses = parseStatusOutput(proc.stdout.toString());
  expect(statuses.get("7")!.progress).toBe('{"phase":"running","total":4,"done":1}\n');
  expect(statuses.get("8")?.progress).toBeUndefined();
});

describe("each status pass, for a job", () => {
  const progress = (phase: string, total: number, done: number, failed = 0) => JSON.stringify({ phase, total, done, failed, running: 0, filesPerMinute: 6, updatedAt: new Date().toISOString() });

  async function setUp(engineKind: "docker" | "slurm") {
    const store = new BatchStore(join(mkdtempSync(join(root, "db-")), "orchestrator.db"));
    const engine = new FakeEngine(engineKind);
    const batches = new BatchesService({ store, uploadsDir: "/nonexistent", planner: {} as never, engineFor: () => engine, engineOf: () => engine, wake: () => {} });
    const now = new Date().toISOString();
    store.insert(
      { id: ID, name: "b", task: "chat", model: "m", revision: "r", profile: "p", engine: engineKind, status: "RUNNING", reason: null, handle: "fake-0", allocations: 1, progress: null, spec: JSON.stringify(stored()), createdBy: "u", createdAt: now, updatedAt: now },
      "submitted",
    );
    return { store, engine, batches };
  }

  test("running: RUNNING with its progress; ETA from the rate", async () => {
    const { store, engine, batches } = await setUp("slurm");
    await batches.observed(engine, new Map([["fake-0", { phase: "running", host: "h", port: null, progress: progress("running", 10, 4) }]]));
    const [record] = batches.list({});
    expect(record).toMatchObject({ status: "RUNNING", progress: { total: 10, done: 4, etaSeconds: 60 } });
    expect(store.get(ID)!.allocations).toBe(1);
  });

  test("a time limit reached with inputs left: submitted again, as allocation 2, without --retry-failed", async () => {
    const { store, engine, batches } = await setUp("slurm");
    await batches.observed(engine, new Map([["fake-0", { phase: "exited", outcome: "timeout", reason: "TIMEOUT", progress: progress("stopped", 10, 6, 1) }]]));
    const row = store.get(ID)!;
    expect(row).toMatchObject({ status: "SUBMITTED", allocations: 2, handle: "fake-1" });
    expect(row.reason).toContain("reached its time limit with 3 of 10 inputs left");
    expect(engine.released).toEqual(["fake-0"]);
    expect(engine.submitted[0].batch!.args).not.toContain("--retry-failed");
  });

  test("a time limit reached while it only waited for new inputs: COMPLETED", async () => {
    const { store, engine, batches } = await setUp("slurm");
    await batches.observed(engine, new Map([["fake-0", { phase: "exited", outcome: "timeout", reason: "TIMEOUT", progress: progress("stopped", 10, 9, 1) }]]));
    expect(store.get(ID)).toMatchObject({ status: "COMPLETED", allocations: 1 });
    expect(engine.submitted).toEqual([]);
  });

  test("the driver ended by itself: COMPLETED; the runtime failed: FAILED with the driver's reason", async () => {
    const done = await setUp("docker");
    await done.batches.observed(done.engine, new Map([["fake-0", { phase: "exited", outcome: "completed", reason: "exit 0", progress: progress("finished", 3, 3) }]]));
    expect(done.store.get(ID)!.status).toBe("COMPLETED");
    const failed = await setUp("docker");
    const broken = JSON.stringify({ ...JSON.parse(progress("failed", 0, 0)), message: "the runtime exited with code 1 before it was ready" });
    await failed.batches.observed(failed.engine, new Map([["fake-0", { phase: "exited", outcome: "failed", reason: "exited with code 1", progress: broken }]]));
    expect(failed.store.get(ID)).toMatchObject({ status: "FAILED", reason: "the runtime exited with code 1 before it was ready (exited with code 1)" });
  });

  test("a Docker job the engine forgot with inputs left is FAILED, a Slurm one is submitted again", async () => {
    const docker = await setUp("docker");
    await docker.batches.observed(docker.engine, new Map([["fake-0", { phase: "missing", progress: progress("running", 5, 2) }]]));
    expect(docker.store.get(ID)!.status).toBe("FAILED");
    const slurm = await setUp("slurm");
    await slurm.batches.observed(slurm.engine, new Map([["fake-0", { phase: "missing", progress: progress("running", 5, 2) }]]));
    expect(slurm.store.get(ID)).toMatchObject({ status: "SUBMITTED", allocations: 2 });
  });
});

test("a job whose submit was cut off before its handle was recorded is adopted from the engine by its id", async () => {
  const store = new BatchStore(join(mkdtempSync(join(root, "db-")), "orchestrator.db"));
  const engine = new FakeEngine("docker");
  const batches = new BatchesService({ store, uploadsDir: "/nonexistent", planner: {} as never, engineFor: () => engine, engineOf: () => engine, wake: () => {} });
  const now = new Date().toISOString();
  store.insert({ id: ID, name: "b", task: "chat", model: "m", revision: "r", profile: "p", engine: "docker", status: "SUBMITTED", reason: null, handle: null, allocations: 1, progress: null, spec: JSON.stringify(stored()), createdBy: "u", createdAt: now, updatedAt: now }, "submitted");
  await batches.beforeTick();
  expect(store.get(ID)!.handle).toBeNull();
  engine.known.set(ID, "container-1");
  await batches.beforeTick();
  expect(store.get(ID)!.handle).toBe("container-1");
});
