/**
 * An svc app with a slurm profile on the Slurm test cluster (images/slurm-test, reached over SSH on
 * 127.0.0.1): a local default profile, then the slurm profile added with the CLI, its host key
 * accepted (`--yes`) as a user would after checking it, and its models registered.
 */
import { mkdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import { startSlurmCluster, writeKeyPair, type SshTestHost } from "./ssh-test-host";
import { ensureDocker } from "./docker";
import { eventually, processExists, runSvc, startSvc, tempHome, type RunningSvc } from "./svc-app";

export interface ClusterApp {
  cluster: SshTestHost;
  app: RunningSvc;
  client: SvcClient;
  /** The environment the CLI needs to reach this app (HOME: the user's, with the SSH key and known_hosts). */
  env: Record<string, string>;
  /** The local user's home: .ssh/ with the key the cluster accepts. */
  localHome: string;
  /** kill -9 of `svc start` (its components exit once their supervisor is gone), then `svc start` again on the same home and port; `app` is the new one. */
  killAndRestart(): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * `gpuNodes`: the cluster also has the partition `gpu` of two GPU nodes (GPU_TEST_NODES); `cpus`: the
 * cores the cluster's container may use (a job that computes until its time limit). The svc
 * runtime folder on the cluster is the one test clusters share (sharedRuntimeFolder): the runtime is
 * sent once for all the files that use it.
 */
export async function startAppWithCluster(profile = "cluster", options: { gpuNodes?: boolean; cpus?: number } = {}): Promise<ClusterApp> {
  ensureDocker();
  const localHome = tempHome("svc-slurm-user-");
  const key = writeKeyPair(join(localHome, ".ssh"));
  const cluster = await startSlurmCluster({ authorizedKeys: [key.publicKey], gpuNodes: options.gpuNodes, cpus: options.cpus, sharedRuntime: true });
  const home = tempHome();
  mkdirSync(join(home, "cache"), { recursive: true });
  symlinkSync(sharedNpmCache(), join(home, "cache", "npm"));
  let app = await startSvc({ env: { HOME: localHome }, home });
  const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), HOME: localHome };
  const client = new SvcClient({ baseUrl: app.url });
  mkdirSync(join(app.home, "cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: join(app.home, "local-home"), cache_dir: join(app.home, "cache") });
  const add = await runSvc(
    ["profile", "add", "--name", profile, "--schema", "slurm", "--host", "127.0.0.1", "--port", String(cluster.port), "--user", "svc", "--home", "~/svc", "--cache", "/shared/cache", "--identity-file", key.privateKeyFile, "--yes"],
    env,
  );
  if (add.code !== 0) throw new Error(`svc profile add failed:\n${add.stderr}`);
  await client.models.refresh(profile);
  return {
    cluster,
    get app() {
      return app;
    },
    client,
    env,
    localHome,
    async killAndRestart() {
      const components = Object.values(app.lock().components).map((component) => component.pid!);
      await app.stop("SIGKILL");
      await eventually(() => components.every((pid) => !processExists(pid)), 15_000, "svc's components to exit after their supervisor was killed");
      app = await startSvc({ env: { HOME: localHome }, home: app.home, port: app.port });
    },
    async cleanup() {
      for (const service of await client.services.list({ all: true }).catch(() => [])) await client.services.remove(service.id, { force: true }).catch(() => {});
      await app.cleanup();
      await cluster.stop();
    },
  };
}

/**
 * One npm package cache for the apps of every file, as one user's svc home keeps one: what the runtime
 * svc makes for a cluster takes from the npm registry (Bun's executable for the cluster's CPU, tens of
 * MB to download and unpack) is fetched once per machine, not once per file. Apps filling it at once
 * are safe: each package is unpacked into a folder of its own and renamed into place.
 */
export function sharedNpmCache(): string {
  const folder = join(tmpdir(), "svc-test-npm-cache");
  mkdirSync(folder, { recursive: true });
  return folder;
}
