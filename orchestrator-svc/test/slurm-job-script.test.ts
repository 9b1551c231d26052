/** The sbatch script renderer: directives from the typed job options, a quoted body, hostile values refused or inert. */
import { describe, expect, test } from "bun:test";
import type { LaunchSpec } from "../src/engines/engine";
import { JobScriptError, renderJobScript } from "../src/engines/slurm/job-script";
import { runtimeCommand, sifName } from "../src/engines/slurm/runtime-command";

const ID = "0b5e8c1a-7d4f-4c2e-9a61-3f0d2b7e9c10";
const MODEL = "/shared/cache/models/models--acme--tiny/snapshots/abc123";
const bare = { runtime: "bare" as const, home: "~/svc", cache: "/shared/cache" };

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
  const body = script.replace(/^exec /m, "printf '%s\\0' ").replace(/^printf '%s %s\\n'.*$/m, ":").replace(/^echo "svc: .*$/m, ":");
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

  test("the body writes the port file and execs the bare runtime with the model, the chosen address and port, then the args", () => {
    const script = renderJobScript(spec({ args: ["--api-key", "k", "--max-total-tokens", "64"] }), bare);
    expect(script).toContain("> port.tmp && mv port.tmp port");
    expect(execWords(script)).toEqual(["bun", "/home/u/svc/runtime/runtimes/text-generation/src/main.ts", "--model", MODEL, "--host", "127.0.0.1", "--port", expect.stringMatching(/^\d+$/), "--api-key", "k", "--max-total-tokens", "64"]);
    expect(Bun.spawnSync(["bash", "-n", "-c", script]).exitCode).toBe(0);
  });

  test("apptainer runs <cache>/images/<image>.sif with the model folder bound read-only, --nv with GPUs", () => {
    const words = runtimeCommand("vllm/vllm-openai:latest", "text-generation", MODEL, 2, { runtime: "apptainer", home: "~/svc", cache: "~/cache" });
    expect(words).toEqual(["apptainer", "run", "--nv", "--bind", "/shared/cache/models/models--acme--tiny:/shared/cache/models/models--acme--tiny:ro", '"$HOME"/cache/images/vllm-openai.sif']);
    expect(sifName("svc-speech-recognition:latest")).toBe("svc-speech-recognition.sif");
    const script = renderJobScript(spec(), { ...bare, runtime: "apptainer" });
    expect(script).toContain("exec apptainer run --bind ");
    expect(script).toContain("/shared/cache/images/svc-text-generation.sif --model ");
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
    const vllm = renderJobScript(spec({ apiKey: "k", image: "vllm/vllm-openai:latest" }), bare);
    expect(vllm).toContain("VLLM_API_KEY=$(cat api_key)");
    expect(renderJobScript(spec(), bare)).not.toContain("api_key");
  });

  test("a job whose key file is gone stops instead of serving without a key", () => {
    const body = renderJobScript(spec({ apiKey: "k" }), bare).replace(/^exec /m, "echo started ");
    const dir = Bun.spawnSync(["mktemp", "-d"]).stdout.toString().trim();
    const proc = Bun.spawnSync(["bash", "-c", body], { cwd: dir, env: { PATH: process.env.PATH!, HOME: "/home/u", SLURMD_NODENAME: "localhost", SLURM_JOB_ID: "7" } });
    expect(proc.exitCode).toBe(1);
    expect(proc.stderr.toString()).toContain("svc: cannot read api_key");
    expect(proc.stdout.toString()).not.toContain("started");
    Bun.spawnSync(["rm", "-rf", dir]);
  });
});
