/**
 * The engine version of a launch found where it runs, on the Slurm test cluster: its stand-in vLLM
 * and SGLang report the versions a test writes into /etc/svc-stand-ins (as `vllm.__version__` does
 * on a real cluster); svc reads them over the profile's connection with `python3 -c`, lists them in
 * `svc profile show`, checks engine arguments against the list of that version (the nearest older
 * one where svc has none, with a warning) and says so in the dry run; `--engine-version` wins.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SvcClient } from "@svc/client";
import { join } from "node:path";
import { runSvc, startAppWithCluster, type ClusterApp } from "@svc/testing";

const PROFILE = "cluster";
const MODEL = "svc-tiny/tiny-llama-gguf";
let started: ClusterApp;
let client: SvcClient;
let env: Record<string, string>;

const asRoot = async (command: string) => {
  const result = await started.cluster.container.exec(["sh", "-c", command]);
  if (result.exitCode !== 0) throw new Error(`${command} failed (${result.exitCode}): ${result.output}`);
};
const dryRun = (...args: string[]) => runSvc(["run", "--profile", PROFILE, "--dry-run", "--gres", "1", "text-generation", MODEL, ...args], env);

beforeAll(async () => {
  started = await startAppWithCluster(PROFILE);
  ({ client, env } = started);
  await asRoot("mkdir -p /etc/svc-stand-ins && echo 0.26.1 > /etc/svc-stand-ins/vllm-version && echo 0.5.9 > /etc/svc-stand-ins/sglang-version");
}, 300_000);

afterAll(async () => {
  await started?.cleanup();
});

describe("a cluster whose vLLM and SGLang are other versions than svc's pinned ones", () => {
  test("svc profile show lists the versions found in the cluster's python3", async () => {
    const shown = await runSvc(["profile", "show", "--name", PROFILE], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("Engine versions");
    expect(shown.stdout).toMatch(/vllm\s+0\.26\.1\s+\(bare job\)\s+python3 on 127\.0\.0\.1/);
    expect(shown.stdout).toMatch(/sglang\s+0\.5\.9\s+\(bare job\)/);
    const json = JSON.parse((await runSvc(["profile", "show", "--name", PROFILE, "--json"], env)).stdout);
    expect(json.engineVersions.map((each: { engine: string; version: string }) => [each.engine, each.version]).sort()).toEqual([["sglang", "0.5.9"], ["vllm", "0.26.1"]]);
  }, 120_000);

  test("the dry run names the version found and the list that checked the arguments, with a warning where svc has no list of that line", async () => {
    const vllm = await dryRun("--max-model-len", "512");
    expect(vllm.code).toBe(0);
    expect(vllm.stderr).toContain("Engine: vLLM 0.26.1 (found: python3 on 127.0.0.1), checked against vLLM v0.23.0's options.");
    expect(vllm.stderr).toContain("svc has no option list for vLLM 0.26.1");
    const sglang = await dryRun("--engine", "sglang", "--context-length", "512");
    expect(sglang.code).toBe(0);
    expect(sglang.stderr).toContain("Engine: SGLang 0.5.9 (found: python3 on 127.0.0.1): arguments checked against its options.");
    expect(sglang.stderr).not.toContain("no option list");
    // An option SGLang added in 0.5.9 passes on that cluster; one of a later release is refused, naming 0.5.9.
    const added = await dryRun("--engine", "sglang", "--disable-flashinfer-autotune");
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("--disable-flashinfer-autotune");
    const later = await dryRun("--engine", "sglang", "--batch-notify-size", "2");
    expect(later.code).not.toBe(0);
    expect(later.stderr).toContain("--batch-notify-size is not an option of SGLang v0.5.9");
    const answer = await client.services.run({ task: "text-generation", model: MODEL, profile: PROFILE, dryRun: true, job: { gres: 1 } });
    expect(answer.engineVersion).toEqual({ engine: "vllm", version: "0.26.1", source: "found", checkedAgainst: "v0.23.0", how: "python3 on 127.0.0.1" });
  }, 120_000);

  test("an option the version's list lacks is refused naming the version; --engine-version wins over what was found", async () => {
    const refused = await dryRun("--max-modle-len", "512");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--max-modle-len is not an option of vLLM v0.23.0");
    expect(refused.stderr).toContain("vLLM v0.23.0 (for 0.26.1)");
    const given = await dryRun("--engine-version", "0.11.1", "--max-model-len", "512");
    expect(given.code).toBe(0);
    expect(given.stderr).toContain("Engine: vLLM 0.11.1 (--engine-version): arguments checked against its options.");
    expect(given.stderr).not.toContain("no option list");
    const bad = await client.services.run({ task: "text-generation", model: MODEL, profile: PROFILE, dryRun: true, job: { gres: 1 }, engineVersion: "newest" }).catch((error) => error);
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("--engine-version \"newest\"");
  }, 120_000);

  test("a cluster on vLLM 0.28 and SGLang 0.5.9: 0.28's options are accepted and the 0.11-only ones refused, naming the version", async () => {
    // Versions are cached per profile: a second profile of the same cluster looks again.
    await asRoot("echo 0.28.1 > /etc/svc-stand-ins/vllm-version");
    const add = await runSvc(["profile", "add", "--name", "newer", "--schema", "slurm", "--host", "127.0.0.1", "--port", String(started.cluster.port), "--user", "svc", "--home", "~/svc", "--cache", "/shared/cache", "--identity-file", join(started.localHome, ".ssh", "id_ed25519"), "--yes"], env);
    expect(add.code).toBe(0);
    await client.models.refresh("newer");
    const newer = (...args: string[]) => runSvc(["run", "--profile", "newer", "--dry-run", "--gres", "1", "text-generation", MODEL, ...args], env);
    const accepted = await newer("--performance-mode", "throughput");
    expect(accepted.stderr).toContain("Engine: vLLM 0.28.1 (found: python3 on 127.0.0.1), checked against vLLM v0.28.0's options.");
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain("--performance-mode throughput");
    const refused = await newer("--swap-space", "4");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--swap-space is not an option of vLLM v0.28.0");
  }, 180_000);
});
