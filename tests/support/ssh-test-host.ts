/**
 * A real sshd for tests: the images/slurm-test image (sshd on 127.0.0.1 only, user `svc` with key
 * login, sbatch/squeue, a readable /shared/cache), built locally and started with testcontainers on
 * a free port with host networking. `startSlurmCluster` also starts munge, slurmctld and slurmd in
 * it: a real one-node cluster whose jobs run the project's runtimes bare. Nothing here sends
 * traffic anywhere but loopback.
 */
import { createHash } from "node:crypto";
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { GenericContainer, Wait, type StartedTestContainer } from "testcontainers";
import { runtimeTree } from "@svc/images";
import { BUN_BINARY, ensureBaseImage } from "./docker";
import { ed25519KeyPair } from "./ssh-keys";

const root = new URL("../..", import.meta.url).pathname;
export const SLURM_TEST_IMAGE_DIR = join(root, "images", "slurm-test");

/** The user sshd lets in, and the cache folder that exists in the image. */
export const SSH_TEST_USER = "svc";
export const SSH_TEST_CACHE = "/shared/cache";
/** A profile home whose `runtime/` holds the runtime tree (what bare Slurm jobs run). */
export const SSH_TEST_HOME = "/home/svc/svc";
/** The runtimes bare Slurm jobs can run in the image. */
const IMAGE_RUNTIMES = ["text-generation"];

function docker(args: string[]): { code: number; stdout: string; stderr: string } {
  const result = Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe", env: process.env });
  return { code: result.exitCode ?? 1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

let imageTag: string | undefined;

/**
 * Builds the image once per content: the tag carries a hash of the image folder and of the base
 * image, so an unchanged image is reused across runs (and rebuilt when either changes).
 */
export function ensureSlurmTestImage(): string {
  if (imageTag) return imageTag;
  const base = ensureBaseImage();
  const baseId = docker(["image", "inspect", "--format", "{{.Id}}", base]).stdout.trim();
  const hash = createHash("sha256").update(baseId);
  for (const name of readdirSync(SLURM_TEST_IMAGE_DIR).sort()) hash.update(name).update(readFileSync(join(SLURM_TEST_IMAGE_DIR, name)));
  // The staged parts: Bun, the runtime tree (by path, size and mtime: it is large) and the model generator's sources.
  const bun = realpathSync(BUN_BINARY);
  const bunStat = statSync(bun);
  hash.update(`bun\0${bunStat.size}\0${bunStat.mtimeMs}\0`);
  const tree = IMAGE_RUNTIMES.flatMap((runtime) => runtimeTree(root, runtime));
  for (const entry of tree) {
    if ("symlink" in entry) hash.update(`${entry.target}->${entry.symlink}\0`);
    else {
      const stat = statSync(entry.source);
      hash.update(`${entry.target}\0${stat.size}\0${stat.mtimeMs}\0`);
    }
  }
  const modelsSrc = join(root, "runtimes", "tiny-models", "src");
  for (const name of readdirSync(modelsSrc).sort()) hash.update(name).update(readFileSync(join(modelsSrc, name)));
  const tag = `svc-slurm-test:${hash.digest("hex").slice(0, 16)}`;
  if (docker(["image", "inspect", tag]).code !== 0) {
    const context = mkdtempSync(join(tmpdir(), "svc-slurm-test-"));
    try {
      for (const name of readdirSync(SLURM_TEST_IMAGE_DIR)) copyFileSync(join(SLURM_TEST_IMAGE_DIR, name), join(context, name));
      const staged = join(context, "staged");
      mkdirSync(join(staged, "app"), { recursive: true });
      copyFileSync(bun, join(staged, "bun"));
      for (const entry of [...new Map(tree.map((e) => [e.target, e])).values()]) {
        const target = join(staged, "app", entry.target);
        mkdirSync(dirname(target), { recursive: true });
        if ("symlink" in entry) symlinkSync(entry.symlink, target);
        else copyFileSync(entry.source, target);
      }
      const models = Bun.spawnSync([process.execPath, join(root, "runtimes", "tiny-models", "src", "cli.ts"), join(staged, "models")], { stdout: "pipe", stderr: "pipe" });
      if (models.exitCode !== 0) throw new Error(`making the tiny models failed:\n${models.stderr.toString()}`);
      // Host networking: apt-get inside the build reaches the same Debian mirror as this machine.
      const built = docker(["build", "--network", "host", "--build-arg", `BASE_IMAGE=${base}`, "--label", "svc.test-image=slurm-test", "-t", tag, context]);
      if (built.code !== 0) throw new Error(`building ${tag} failed:\n${built.stderr.slice(-4000)}`);
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
  }
  return (imageTag = tag);
}

/** A free TCP port on loopback. */
export function freeLoopbackPort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

export interface KeyPair {
  privateKeyFile: string;
  publicKey: string;
}

/** Writes a new ed25519 key pair (OpenSSH format, no passphrase) to `dir/name` and `dir/name.pub`. */
export function writeKeyPair(dir: string, name = "id_ed25519"): KeyPair {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pair = ed25519KeyPair(`svc-test-${name}`);
  const privateKeyFile = join(dir, name);
  writeFileSync(privateKeyFile, pair.private, { mode: 0o600 });
  writeFileSync(`${privateKeyFile}.pub`, `${pair.public}\n`, { mode: 0o644 });
  return { privateKeyFile, publicKey: pair.public.trim() };
}

export interface SshTestHost {
  host: "127.0.0.1";
  port: number;
  user: string;
  cache: string;
  container: StartedTestContainer;
  /** Runs a command in the container as `user` (for assertions about the server's side). */
  execAsUser(command: string): Promise<{ exitCode: number; output: string }>;
  stop(): Promise<void>;
}

/**
 * Starts sshd on 127.0.0.1:`port` (a free one by default) accepting `authorizedKeys` for the user
 * `svc`. Each start generates new host keys, so a second host on the same port is a changed host.
 */
export async function startSshTestHost(options: { authorizedKeys: string[]; port?: number; slurm?: boolean }): Promise<SshTestHost> {
  const tag = ensureSlurmTestImage();
  const port = options.port ?? freeLoopbackPort();
  const slurmPorts: Record<string, string> = options.slurm ? { SLURMCTLD_PORT: String(freeLoopbackPort()), SLURMD_PORT: String(freeLoopbackPort()) } : {};
  const container = await new GenericContainer(tag)
    .withNetworkMode("host")
    .withEnvironment({ SSHD_PORT: String(port), AUTHORIZED_KEYS: options.authorizedKeys.join("\n"), ...slurmPorts })
    .withWaitStrategy(Wait.forLogMessage(/Server listening on 127\.0\.0\.1 port/))
    .withStartupTimeout(60_000)
    .start();
  return {
    host: "127.0.0.1",
    port,
    user: SSH_TEST_USER,
    cache: SSH_TEST_CACHE,
    container,
    execAsUser: (command) => container.exec(["runuser", "-u", SSH_TEST_USER, "--", "sh", "-c", command]),
    stop: async () => {
      await container.stop({ timeout: 1 });
    },
  };
}

/**
 * A one-node Slurm cluster (munge, slurmctld, slurmd on free loopback ports) behind the test sshd:
 * the user `svc` submits with sbatch; its profile home ~/svc holds the runtime tree, the shared
 * cache /shared/cache the tiny models.
 */
export function startSlurmCluster(options: { authorizedKeys: string[] }): Promise<SshTestHost> {
  return startSshTestHost({ ...options, slurm: true });
}
