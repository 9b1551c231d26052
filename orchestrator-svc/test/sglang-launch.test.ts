/** SGLang's start: its model option, its image without an entry point, and its key handed over outside any command line. */
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { containerConfig, dockerRunWords } from "../src/engines/docker/container-config";
import { serverProgram } from "../src/engines/gpu-servers";

const spec = (apiKey?: string) => ({ serviceId: crypto.randomUUID(), name: "n", task: "text-generation" as const, image: "lmsysorg/sglang:v0.5.5", args: ["--served-model-name", "m"], apiKey, modelDir: "/m", job: { gres: 1 } });

test("Docker: SGLang's server module runs in its image, with --model-path; with a key, a shell reads it from the mounted file", () => {
  const plain = containerConfig(spec(), 41234, { network: "host", homeLabel: "h", user: "10001:10001" });
  expect(plain.body.Entrypoint).toEqual(["python3", "-m", "sglang.launch_server"]);
  expect(plain.body.Cmd.slice(0, 2)).toEqual(["--model-path", "/m"]);
  const keyed = containerConfig(spec("sk-x"), 41234, { network: "host", homeLabel: "h", user: "10001:10001" }, "/keys/id");
  expect(JSON.stringify(keyed)).not.toContain("sk-x");
  expect(keyed.body.Entrypoint?.[2]).toContain('SGLANG_API_KEY="$(cat /run/secrets/svc-api-key)"');
  expect(keyed.body.Cmd).not.toContain("--api-key-file");
  expect(dockerRunWords(keyed).join(" ")).toContain("--gpus 1 --entrypoint /bin/sh lmsysorg/sglang:v0.5.5 -c");
});

test("the key reaches SGLang's own parser as --api-key, and is on no command line (`ps`)", () => {
  // A stand-in module in place of sglang.launch_server: what its argparse would read, and what `ps` shows.
  const dir = mkdtempSync(join(tmpdir(), "svc-sglang-launch-"));
  mkdirSync(join(dir, "sglang"));
  writeFileSync(join(dir, "sglang", "__init__.py"), "");
  writeFileSync(join(dir, "sglang", "launch_server.py"), 'import json, os, sys\nprint(json.dumps({"argv": sys.argv[1:], "cmdline": open("/proc/self/cmdline").read().split("\\0"), "env": "SGLANG_API_KEY" in os.environ}))\n');
  const [python, ...rest] = serverProgram("sglang", true);
  const run = Bun.spawnSync([python, ...rest, "--model-path", "/m", "--port", "1"], { env: { PATH: process.env.PATH!, PYTHONPATH: dir, SGLANG_API_KEY: "sk-secret" } });
  expect(run.exitCode).toBe(0);
  const seen = JSON.parse(run.stdout.toString()) as { argv: string[]; cmdline: string[]; env: boolean };
  expect(seen.argv).toEqual(["--model-path", "/m", "--port", "1", "--api-key", "sk-secret"]);
  expect(seen.cmdline.join(" ")).not.toContain("sk-secret");
  // Taken out of the environment too, so the server's workers do not inherit it.
  expect(seen.env).toBe(false);
  const none = Bun.spawnSync([python, ...rest, "--port", "1"], { env: { PATH: process.env.PATH!, PYTHONPATH: dir } });
  expect(JSON.parse(none.stdout.toString()).argv).toEqual(["--port", "1"]);
});
