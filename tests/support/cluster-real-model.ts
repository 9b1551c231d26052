/**
 * A real model's snapshot in the Slurm test cluster's shared cache: its config.json and index, each
 * shard's header (what svc reads) copied in and the shard then extended to its true size with
 * truncate (a hole: no gigabytes on disk, nor through docker cp), and the tiny GGUF the GPU
 * stand-ins serve with (they answer through the svc CPU runtime).
 */
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "@svc/platform/shell";
import { commitOf } from "./hf-cache";
import { writeSnapshot } from "./real-models";
import type { ServiceStatus } from "@svc/contracts";
import { startAppWithCluster, type ClusterApp } from "./cluster-app";
import type { SshTestHost } from "./ssh-test-host";
import { eventually, runSvc, tempHome } from "./svc-app";

const TINY_GGUF = "/shared/cache/models/models--svc-tiny--tiny-llama-gguf/snapshots/*/tiny-llama-f32.gguf";

/** Installs `configName` (tests/support/fixtures/model-configs) as `repo` at the revision commitOf(repo). */
export async function installRealModelOnCluster(cluster: SshTestHost, configName: string, repo: string): Promise<void> {
  const local = tempHome("svc-cluster-model-");
  const full = join(local, "full");
  const heads = join(local, "heads");
  writeSnapshot(configName, full);
  mkdirSync(heads);
  const sizes: string[] = [];
  for (const name of readdirSync(full)) {
    const path = join(full, name);
    if (!name.endsWith(".safetensors")) {
      copyFileSync(path, join(heads, name));
      continue;
    }
    const fd = openSync(path, "r");
    const length = Buffer.alloc(8);
    readSync(fd, length, 0, 8, 0);
    const head = Buffer.alloc(8 + Number(length.readBigUInt64LE()));
    readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    writeFileSync(join(heads, name), head);
    sizes.push(`truncate -s ${statSync(path).size} ${shellQuote(name)}`);
  }
  const repoDir = `/shared/cache/models/models--${repo.replace("/", "--")}`;
  const snapshot = `${repoDir}/snapshots/${commitOf(repo)}`;
  await cluster.container.copyDirectoriesToContainer([{ source: heads, target: snapshot }]);
  rmSync(local, { recursive: true, force: true });
  const command = [`cd ${snapshot}`, ...sizes, `cp -L ${TINY_GGUF} .`, `mkdir -p ${repoDir}/refs`, `printf %s ${commitOf(repo)} > ${repoDir}/refs/main`, `chmod -R a+rX ${repoDir}`].join(" && ");
  const result = await cluster.container.exec(["sh", "-c", command]);
  if (result.exitCode !== 0) throw new Error(`${command} failed (${result.exitCode}): ${result.output}`);
}

/**
 * The app on the test cluster with its GPU nodes, `configName` installed as `repo` and registered,
 * and the svc runtime installed in the cluster user's home (the GPU stand-ins serve through it).
 */
export async function startGpuClusterWithRealModel(profile: string, configName: string, repo: string): Promise<ClusterApp> {
  const started = await startAppWithCluster(profile, { gpuNodes: true });
  try {
    await installRealModelOnCluster(started.cluster, configName, repo);
    await started.client.models.refresh(profile);
    const install = await runSvc(["runtime", "install", "-p", profile], started.env);
    if (install.code !== 0) throw new Error(`svc runtime install failed:\n${install.stderr}`);
    return started;
  } catch (error) {
    await started.cleanup();
    throw error;
  }
}

/** Waits for service `id` to be `wanted`; fails at once on another end, and either way with the job's output in the message. */
export async function serviceReaches(started: ClusterApp, id: string, wanted: ServiceStatus, ms = 90_000): Promise<void> {
  try {
    await eventually(async () => {
      const { status, reason } = await started.client.services.get(id);
      if (status !== wanted && ["FAILED", "STOPPED"].includes(status)) throw new Error(`${id} is ${status}, not ${wanted}: ${reason}`);
      return status === wanted;
    }, ms, `${id} to be ${wanted}`);
  } catch (error) {
    throw new Error(`${(error as Error).message}\njob output:\n${(await runSvc(["logs", id], started.env)).stdout.slice(-4000)}`);
  }
}
