/**
 * `bun bench/runtime-install.ts`: installing the svc runtime on a cluster account, against the test
 * cluster (images/slurm-test, sshd on 127.0.0.1). Prints, for a fresh account:
 * - making the bundle (runtime tree, Bun and native modules fetched from the npm registry into an
 *   empty svc home) — what `svc runtime ls` does first;
 * - the first `svc runtime install`: time and bytes sent;
 * - a second install of the same version from another svc instance (another home): time and bytes;
 * - copying the same files by hand, as the README once asked: `tar -cz | ssh … tar -xz` with
 *   OpenSSH into another fresh account, and the ratio of svc's first install to it.
 * Traffic stays on loopback.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { RuntimeInstall } from "@svc/contracts";
import { NpmPackages, runtimeBundle, SVC_ROOT } from "@svc/images";
import { ensureDocker, runSvc, startSlurmCluster, startSvc, tempHome, writeKeyPair, type RunningSvc } from "@svc/testing";

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

ensureDocker();
const localHome = tempHome("svc-bench-runtime-");
const key = writeKeyPair(join(localHome, ".ssh"));
const cluster = await startSlurmCluster({ authorizedKeys: [] });
for (const user of ["first", "byhand"]) await cluster.addUser(user, key.publicKey);

async function app(): Promise<{ svc: RunningSvc; env: Record<string, string> }> {
  const svc = await startSvc({ env: { HOME: localHome } });
  const env = { SVC_HOME_DIR: svc.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(svc.port), HOME: localHome };
  const client = new SvcClient({ baseUrl: svc.url });
  mkdirSync(join(svc.home, "cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: join(svc.home, "h"), cache_dir: join(svc.home, "cache") });
  await client.profiles.create({ name: "cluster", schema: "slurm", host: "127.0.0.1", port: cluster.port, user: "first", home: "~/svc", cache: "/shared/cache", identity_file: key.privateKeyFile });
  return { svc, env };
}

async function timed(args: string[], env: Record<string, string>): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  const result = await runSvc(args, env);
  if (result.code !== 0) throw new Error(`svc ${args.join(" ")} failed:\n${result.stderr}`);
  return { ms: performance.now() - started, stdout: result.stdout };
}

const apps: RunningSvc[] = [];
const staged = mkdtempSync(join(tmpdir(), "svc-bench-bundle-"));
try {
  const one = await app();
  apps.push(one.svc);
  const prepare = await timed(["runtime", "ls", "-p", "cluster"], one.env);
  console.log(`making the bundle in an empty svc home (npm packages fetched and checked): ${seconds(prepare.ms)}`);

  const first = await timed(["runtime", "install", "-p", "cluster", "--json"], one.env);
  const task = JSON.parse(first.stdout) as RuntimeInstall;
  console.log(`first install:  ${seconds(first.ms)}, ${mib(task.bytesSent)} sent (bundle ${mib(task.bytesTotal)} as tar, gzip level 1), version ${task.version}`);

  const two = await app();
  apps.push(two.svc);
  await timed(["runtime", "ls", "-p", "cluster"], two.env);
  const second = await timed(["runtime", "install", "-p", "cluster", "--json"], two.env);
  console.log(`second install (another svc home, same version): ${seconds(second.ms)}, ${(JSON.parse(second.stdout) as RuntimeInstall).bytesSent} bytes sent`);

  // By hand: the same files, staged here, through OpenSSH's tar pipe into a fresh account.
  const bundle = await runtimeBundle({ root: SVC_ROOT, arch: "x64", tasks: ["text-generation", "speech-recognition"], packages: new NpmPackages(join(one.svc.home, "cache", "npm")) });
  const untar = Bun.spawn(["tar", "-xf", "-", "-C", staged], { stdin: bundle.tar() });
  if ((await untar.exited) !== 0) throw new Error("staging the bundle failed");
  const ssh = `ssh -i ${key.privateKeyFile} -p ${cluster.port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR byhand@127.0.0.1`;
  const started = performance.now();
  const copy = Bun.spawnSync(["sh", "-c", `tar -czf - -C ${staged} . | ${ssh} 'mkdir -p svc/runtime/manual && tar -xzf - -C svc/runtime/manual'`], { stderr: "pipe" });
  if (copy.exitCode !== 0) throw new Error(`the copy by hand failed: ${copy.stderr.toString()}`);
  const byHand = performance.now() - started;
  console.log(`by hand (tar -cz | OpenSSH | tar -xz, no check): ${seconds(byHand)}`);
  console.log(`svc's first install / by hand: ${(first.ms / byHand).toFixed(2)}× (svc also checks every file's hash on the cluster before the version counts)`);
} finally {
  for (const svc of apps) await svc.cleanup();
  await cluster.stop();
  rmSync(staged, { recursive: true, force: true });
  rmSync(localHome, { recursive: true, force: true });
}
