/** The sbatch script renderer: directives from the typed job options, a quoted body, hostile values refused or inert. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LaunchSpec } from "../src/engines/engine";
import { JobScriptError, renderJobScript } from "../src/engines/slurm/job-script";
import { runtimeCommand, type RuntimeTarget } from "../src/engines/slurm/runtime-command";
import { sifName } from "../src/engines/slurm/apptainer-images";

const ID = "0b5e8c1a-7d4f-4c2e-9a61-3f0d2b7e9c10";
const MODEL = "/shared/cache/models/models--acme--tiny/snapshots/abc123";
const VERSION = "0123456789abcdef";
const bundleDir = `~/svc/runtime/${VERSION}`;
const bare: RuntimeTarget = {
  runtime: "bare",
  bundle: { version: VERSION, dir: bundleDir, bun: `${bundleDir}/bin/bun`, main: `${bundleDir}/app/runtimes/text-generation/src/main.ts` },
};

function spec(overrides: Partial<LaunchSpec> = {}): LaunchSpec {
  return {
    serviceId: ID,
    name: "chat",
    task: "text-generation",
    image: "svc-text-generation:latest",
    args: [],
    modelDir: MODEL,
    job: {},
    ...overrides,
  };
}

/** Runs the script's body with bash -n (syntax only) and returns the words `exec` would get, by replacing exec with printf. */
function execWords(script: string): string[] {
  const body = script
    .replace(/^exec /m, "printf '%s\\0' ")
    .replace(/^printf '%s %s\\n'.*$/m, ":")
    .replace(/^echo "svc: .*$/m, ":")
    .replace(/^if \[ ! -[xf] .*\]; then$/m, "if false; then")
    .replace(/^mkdir -p .*$/m, ":");
  const proc = Bun.spawnSync(["bash", "-c", body], { env: { PATH: process.env.PATH!, HOME: "/home/u", SLURMD_NODENAME: "localhost" }, cwd: "/tmp" });
  expect(proc.exitCode).toBe(0);
  return proc.stdout.toString().split("\0").slice(0, -1);
}

describe("renderJobScript", () => {
  test("every job option becomes its #SBATCH directive, in Slurm's own syntax", () => {
    const script = renderJobScript(spec({ job: { time: "01:30:00", ntasksPerNode: 2, mem: 16, gres: 2, partition: "gpu-a100", constraint: "a100&ib|h100" } }), bare);
    const directives = script.split("\n").filter((line) => line.startsWith("#SBATCH"));
    expect(directives).toEqual([
      "#SBATCH --job-name=chat",
      `#SBATCH --comment=svc:${ID}`,
      "#SBATCH --output=output.log",
      "#SBATCH --open-mode=append",
      "#SBATCH --time=01:30:00",
      "#SBATCH --ntasks-per-node=2",
      "#SBATCH --mem=16G",
      "#SBATCH --gres=gpu:2",
      "#SBATCH --partition=gpu-a100",
      "#SBATCH --constraint=a100&ib|h100",
    ]);
    expect(script.startsWith("#!/bin/bash\n")).toBe(true);
  });

  test("no options, no directives for them; --gres 0 asks for no GPU", () => {
    const script = renderJobScript(spec({ job: { gres: 0 } }), bare);
    expect(script).not.toMatch(/--(time|mem|gres|partition|constraint|ntasks-per-node)=/);
  });

  test("the body writes the port file and execs the bundle's own Bun by absolute path with the model, the chosen address and port, then the args", () => {
    const script = renderJobScript(spec({ args: ["--api-key", "k", "--max-total-tokens", "64"] }), bare);
    expect(script).toContain("> port.tmp && mv port.tmp port");
    expect(script).not.toContain("PATH");
    const runtime = `/home/u/svc/runtime/${VERSION}`;
    expect(execWords(script)).toEqual([`${runtime}/bin/bun`, `${runtime}/app/runtimes/text-generation/src/main.ts`, "--model", MODEL, "--host", "127.0.0.1", "--port", expect.stringMatching(/^\d+$/), "--api-key", "k", "--max-total-tokens", "64"]);
    expect(Bun.spawnSync(["bash", "-n", "-c", script]).exitCode).toBe(0);
  });

  test("a job whose bundle is not on its node stops before anything else, saying so on its output", () => {
    const script = renderJobScript(spec(), bare);
    const workDir = mkdtempSync(join(tmpdir(), "svc-job-"));
    const proc = Bun.spawnSync(["bash", "-c", script], { env: { PATH: process.env.PATH!, HOME: "/nonexistent-home", SLURMD_NODENAME: "node7" }, cwd: workDir });
    expect(proc.exitCode).toBe(3);
    expect(proc.stderr.toString()).toStartWith(`svc: cannot start: the svc runtime ${VERSION} is not on node node7: /nonexistent-home/svc/runtime/${VERSION}/bin/bun is missing there. Its home folder must be shared with the compute nodes`);
    expect(readdirSync(workDir)).toEqual([]);
    rmSync(workDir, { recursive: true });
  });

  test("apptainer runs the planned SIF with the model folder bound read-only, --nv with GPUs, and lists how svc made the image", () => {
    const target: RuntimeTarget = { runtime: "apptainer", sif: "~/cache/images/vllm-openai.sif", prepare: ["apptainer pull x docker://vllm/vllm-openai:latest"] };
    expect(runtimeCommand(MODEL, 2, target).words).toEqual(["apptainer", "run", "--nv", "--bind", "/shared/cache/models/models--acme--tiny:/shared/cache/models/models--acme--tiny:ro", '"$HOME"/cache/images/vllm-openai.sif']);
    expect(sifName("svc-speech-recognition:latest")).toBe("svc-speech-recognition.sif");
    expect(sifName("docker://vllm/vllm-openai:v0.6.1")).toBe("vllm-openai_v0.6.1.sif");
    const script = renderJobScript(spec(), { runtime: "apptainer", sif: "/shared/cache/images/svc-text-generation.sif", prepare: [] });
    expect(script).toContain("exec apptainer run --bind ");
    expect(script).toContain("/shared/cache/images/svc-text-generation.sif --model ");
    expect(renderJobScript(spec(), target)).toContain("\n#   apptainer pull x docker://vllm/vllm-openai:latest\n");
    expect(runtimeCommand(MODEL, 0, target, "~/svc/inputs").words.slice(4, 6)).toEqual(["--bind", '"$HOME"/svc/inputs:"$HOME"/svc/inputs']);
  });

  test("a speech service's input folder under ~ is the node's home, made before the server starts", () => {
    const script = renderJobScript(spec({ task: "speech-recognition", inputDir: "~/svc/inputs" }), bare);
    expect(script).toContain('\nmkdir -p "$HOME"/svc/inputs\n');
    expect(execWords(script).slice(8, 10)).toEqual(["--input-dir", "/home/u/svc/inputs"]);
  });

  test("hostile engine args, model paths and input folders stay single inert words", () => {
    const hostile = ["$(touch /tmp/x)", "; rm -rf ~", "`id`", "'; touch y; '", '"$(id)"', "a b", "--flag=$HOME", "\\", "&& echo pwned #", "*"];
    const words = execWords(renderJobScript(spec({ args: hostile, modelDir: "/models/it's $(here)", inputDir: "/in/`x`" }), bare));
    expect(words.slice(-hostile.length)).toEqual(hostile);
    expect(words[3]).toBe("/models/it's $(here)");
    expect(words.slice(8, 12)).toEqual(["--input-dir", "/in/`x`", "--input-host-dir", "/in/`x`"]);
  });

  test("values that could break out of an #SBATCH line or the script are refused", () => {
    const refused: Partial<LaunchSpec>[] = [
      { name: "chat\n#SBATCH --wrap=id" },
      { name: "a;b" },
      { name: "$(id)" },
      { job: { partition: "debug --wrap=id" } },
      { job: { partition: "debug\nid" } },
      { job: { constraint: "a'b" } },
      { job: { constraint: "a b" } },
      { job: { time: "1:00; id" } },
      { job: { mem: 1.5 } },
      { job: { ntasksPerNode: -1 } },
      { job: { gres: 1.5 } },
      { args: ["ok", "new\nline"] },
      { modelDir: "/m\n/x" },
      { serviceId: "not-a-uuid; id" },
    ];
    for (const overrides of refused) expect(() => renderJobScript(spec(overrides), bare)).toThrow(JobScriptError);
  });

  test("the key is never in the script: the server gets it in its environment, read from the 0600 file; files made by the job are private", () => {
    const script = renderJobScript(spec({ apiKey: "sk-not-in-the-script" }), bare);
    expect(script).not.toContain("sk-not-in-the-script");
    expect(script).toContain("\numask 077\n");
    expect(script).toContain("SVC_API_KEY=$(cat api_key) || {");
    expect(script).toContain("\nexport SVC_API_KEY\n");
    const lora = renderJobScript(spec({ image: "vllm/vllm-openai:latest", args: ["--enable-lora", "--lora-modules", "acme/a=/models/a"] }), bare);
    expect(lora).toContain("\nexport VLLM_ALLOW_RUNTIME_LORA_UPDATING=True\n");
    expect(lora).toContain("--lora-modules acme/a=/models/a\n");
    const vllm = renderJobScript(spec({ apiKey: "k", image: "vllm/vllm-openai:latest" }), bare);
    expect(vllm).toContain("VLLM_API_KEY=$(cat api_key)");
    expect(renderJobScript(spec(), bare)).not.toContain("api_key");
  });

  test("a job whose key file is gone stops instead of serving without a key", () => {
    const body = renderJobScript(spec({ apiKey: "k" }), bare)
      .replace(/^if \[ ! -[xf] .*\]; then$/m, "if false; then")
      .replace(/^exec /m, "echo started ");
    const dir = Bun.spawnSync(["mktemp", "-d"]).stdout.toString().trim();
    const proc = Bun.spawnSync(["bash", "-c", body], { cwd: dir, env: { PATH: process.env.PATH!, HOME: "/home/u", SLURMD_NODENAME: "localhost", SLURM_JOB_ID: "7" } });
    expect(proc.exitCode).toBe(1);
    expect(proc.stderr.toString()).toContain("svc: cannot read api_key");
    expect(proc.stdout.toString()).not.toContain("started");
    Bun.spawnSync(["rm", "-rf", dir]);
  });

  test("account, qos, reservation, exclude and nodelist become #SBATCH lines exactly as given", () => {
    const job = { account: "proj-1", qos: "high.prio", reservation: "maint_01", exclude: "node[01-04],gpu7", nodelist: "node05" };
    const directives = renderJobScript(spec({ job }), bare).split("\n").filter((line) => line.startsWith("#SBATCH"));
    expect(directives.slice(4)).toEqual([
      "#SBATCH --account=proj-1",
      "#SBATCH --qos=high.prio",
      "#SBATCH --reservation=maint_01",
      "#SBATCH --exclude=node[01-04],gpu7",
      "#SBATCH --nodelist=node05",
    ]);
  });

  test("hostile scheduling values and mount folders cannot reach the script", () => {
    const refused: Partial<LaunchSpec>[] = [
      { job: { account: "a --wrap=id" } },
      { job: { account: "a\nid" } },
      { job: { qos: "$(id)" } },
      { job: { reservation: "r;id" } },
      { job: { exclude: "n1 n2" } },
      { job: { nodelist: "n1'" } },
      { mounts: [{ source: "/data\n#SBATCH --wrap=id", target: "/data" }] },
      { gracePeriod: -1 },
    ];
    for (const overrides of refused) expect(() => renderJobScript(spec(overrides), bare)).toThrow(JobScriptError);
  });

  test("a bare job checks each --mount folder is on its node, and fails saying so when one is not", () => {
    const present = mkdtempSync(join(tmpdir(), "svc-mount-"));
    const script = renderJobScript(spec({ mounts: [{ source: present, target: present }, { source: "/no/such/corpus", target: "/no/such/corpus" }] }), bare);
    expect(script).toContain("# --mount folders: a bare job reads them where they are on the node");
    const workDir = mkdtempSync(join(tmpdir(), "svc-job-"));
    const body = script.replace(/^if \[ ! -x .*\]; then$/m, "if false; then");
    const proc = Bun.spawnSync(["bash", "-c", body], { env: { PATH: process.env.PATH!, HOME: "/home/u", SLURMD_NODENAME: "node7" }, cwd: workDir });
    expect(proc.exitCode).toBe(3);
    expect(proc.stderr.toString()).toStartWith("svc: cannot start: the --mount folder /no/such/corpus is not on node node7: /no/such/corpus is missing there. Mount a folder the compute nodes share.");
    rmSync(workDir, { recursive: true });
    rmSync(present, { recursive: true });
  });

  test("apptainer binds each --mount folder read-only at the path given", () => {
    const target: RuntimeTarget = { runtime: "apptainer", sif: "/shared/images/x.sif", prepare: [] };
    const words = runtimeCommand(MODEL, 0, target, undefined, [{ source: "/shared/corpus", target: "/shared/corpus" }, { source: "/data/it's", target: "/data/it's" }]).words;
    expect(words.slice(4, 8)).toEqual(["--bind", "/shared/corpus:/shared/corpus:ro", "--bind", "'/data/it'\\''s:/data/it'\\''s:ro'"]);
  });

  test("the grace period shows as a comment of the script", () => {
    expect(renderJobScript(spec({ gracePeriod: 300 }), bare)).toContain("\n# svc counts it UNHEALTHY when its health check has not answered 300 s after it started (--grace-period 300).\n");
    expect(renderJobScript(spec(), bare)).not.toContain("--grace-period");
  });
});
