/**
 * A job script whose server spans two nodes, run by bash with stand-in srun, scontrol, ray and
 * python3 (fixtures/multi-node-bin) that record what they are given: the group's start lines, every
 * value one word, and a node's part ending failing the job with a reason that names the node.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LaunchSpec } from "../src/engines/engine";
import { renderJobScript } from "../src/engines/slurm/job-script";
import { observe } from "../src/engines/slurm/job-status";
import { userPlacement } from "../src/launch/gpu-engine";

const BIN = join(import.meta.dir, "fixtures", "multi-node-bin");
const ID = "0b5e8c1a-7d4f-4c2e-9a61-3f0d2b7e9c10";
const MODEL = "/shared/cache/models/models--acme--big/snapshots/abc123";
const HOSTILE = "$(touch /tmp/pwned-multi) 'x' `id`";

function spec(image: string, args: string[]): LaunchSpec {
  const job = { gres: 4, nodes: 2, partition: "gpu" };
  return { serviceId: ID, name: "big", task: "text-generation", image, args, modelDir: MODEL, job, placement: { ...userPlacement(job)!, gpuType: "a100" } };
}

/** Runs the script in a fresh folder with the stand-ins first on PATH; returns its exit code, output and what each stand-in recorded. */
function run(script: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "svc-multi-node-"));
  // In a session of its own, so what the stand-ins leave running (as a real job's scancel would) ends with it.
  const session = `setsid bash -c "$0" > output.log 2>&1 & pid=$!; wait $pid; code=$?; kill -- -$pid 2>/dev/null; exit $code`;
  const proc = Bun.spawnSync(["bash", "-c", session, script], { cwd: dir, env: { PATH: `${BIN}:${process.env.PATH}`, HOME: dir, LOG: dir, SLURM_JOB_NODELIST: "n[1-2]", SLURM_JOB_ID: "7", SLURMD_NODENAME: "n1", ...env }, stdout: "pipe", stderr: "pipe" });
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), "utf8");
    } catch {
      return "";
    }
  };
  return { code: proc.exitCode, output: read("output.log"), read };
}

describe("vLLM over Ray on two nodes", () => {
  const script = renderJobScript(spec("vllm/vllm-openai:v0.11.1", ["--served-model-name", "acme/big", "--tensor-parallel-size", "4", "--pipeline-parallel-size", "2", "--chat-template", HOSTILE]), { runtime: "bare" });

  test("asks Slurm for two nodes with four typed GPUs each", () => {
    expect(script).toContain("\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:a100:4\n");
    expect(Bun.spawnSync(["bash", "-n", "-c", script]).exitCode).toBe(0);
  });

  test("Ray head here, one worker on the other node, then vLLM with the Ray executor once Ray counts both nodes", () => {
    const { code, output, read } = run(script, { SERVE_SECONDS: "0" });
    expect(output).toContain("svc: Ray counts 2 nodes: starting vLLM");
    expect(code).toBe(0);
    expect(read("ray-head")).toMatch(/^start --head --node-ip-address=\S+ --port=\d+ --block\n$/);
    const port = read("ray-head").match(/--port=(\d+)/)![1];
    expect(read("ray-workers")).toMatch(new RegExp(`^n2 start --address=\\S+:${port} --block\\n$`));
    expect(read("srun")).toMatch(/^--nodes=1 --ntasks=1 --ntasks-per-node=1 --kill-on-bad-exit=1 --exclude=n1 bash -c /);
    const words = read("python3.n1").trimEnd().split("\n");
    expect(words.slice(0, 3)).toEqual(["-m", "vllm.entrypoints.openai.api_server", "--model"]);
    expect(words.slice(-10)).toEqual(["--served-model-name", "acme/big", "--tensor-parallel-size", "4", "--pipeline-parallel-size", "2", "--chat-template", HOSTILE, "--distributed-executor-backend", "ray"]);
  }, 30_000);

  test("the worker on n2 ending fails the job with a reason naming n2", () => {
    const { code, output } = run(script, { SERVE_SECONDS: "600", FAIL_NODE: "n2" });
    expect(code).toBe(1);
    expect(output).toContain("svc: failed: node n2 lost: its Ray worker ended (exit 137)");
    const observed = observe({ jobId: "7", state: "FAILED", reason: "NonZeroExitCode", exitCode: "1:0", tail: output });
    expect(observed).toMatchObject({ phase: "exited", outcome: "failed" });
    expect(observed.phase === "exited" && observed.reason).toStartWith("node n2 lost: its Ray worker ended (exit 137) (the Slurm job FAILED");
  }, 30_000);
});

describe("SGLang on two nodes", () => {
  const script = renderJobScript(spec("lmsysorg/sglang:v0.5.5", ["--served-model-name", "acme/big", "--tp-size", "4", "--pp-size", "2", "--chat-template", HOSTILE]), { runtime: "bare" });

  test("one rank per node, each with its node rank, the same rendezvous on the head, HTTP on the head's address", () => {
    // Each rank serves a second, so neither ends (and takes the group down) before the other has started.
    const { read } = run(script, { SERVE_SECONDS: "1" });
    expect(read("srun")).toMatch(/^--nodes=2 --ntasks=2 --ntasks-per-node=1 --kill-on-bad-exit=1 bash -c /);
    const ranks = ["n1", "n2"].map((node) => read(`python3.${node}`).trimEnd().split("\n"));
    for (const [rank, words] of ranks.entries()) {
      expect(words.slice(0, 4)).toEqual(["-m", "sglang.launch_server", "--model-path", MODEL]);
      expect(words).toContain(HOSTILE);
      expect(words.slice(words.indexOf("--nnodes"))).toEqual(["--nnodes", "2", "--dist-init-addr", expect.stringMatching(/^\S+:\d+$/), "--node-rank", String(rank)]);
    }
    expect(ranks[0][ranks[0].indexOf("--dist-init-addr") + 1]).toBe(ranks[1][ranks[1].indexOf("--dist-init-addr") + 1]);
    expect(ranks[0][ranks[0].indexOf("--host") + 1]).toBe(ranks[1][ranks[1].indexOf("--host") + 1]);
  });

  test("rank 1 on n2 ending fails the job with a reason naming n2", () => {
    const { code, output } = run(script, { SERVE_SECONDS: "600", FAIL_NODE: "n2" });
    expect(code).toBe(1);
    const observed = observe({ jobId: "7", state: "FAILED", reason: "NonZeroExitCode", exitCode: "1:0", tail: output });
    expect(observed.phase === "exited" && observed.reason).toStartWith("node n2 lost: its SGLang rank ended (exit 137) (the Slurm job FAILED");
  }, 30_000);
});

test("a CPU service or a batch job cannot span nodes", () => {
  const cpu = { ...spec("svc-text-generation:latest", []), placement: undefined };
  expect(() => renderJobScript(cpu, { runtime: "bare" })).toThrow("only a GPU service (vLLM or SGLang, with --gres) spans nodes");
});
