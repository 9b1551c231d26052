/**
 * A real sshd for tests: the images/slurm-test image (sshd on 127.0.0.1 only, user `svc` with key
 * login, sbatch/squeue, a readable /shared/cache), built locally and started with testcontainers on
 * a free port with host networking. `startSlurmCluster` also starts munge, slurmctld and slurmd in
 * it: a real one-node cluster with neither Bun nor the svc runtime, which svc installs itself.
 * Nothing here sends traffic anywhere but loopback.
 */
import { createHash } from "node:crypto";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { StartedTestContainer } from "testcontainers";
import { freePort, retryWhilePortTaken } from "@svc/platform/net";
import { ensureBaseImage, ensureDocker } from "./docker";
import { prebuiltImage } from "./prebuilt-images";
import { testFileLabels } from "./test-file-label";
import { ed25519KeyPair } from "./ssh-keys";

const root = new URL("../..", import.meta.url).pathname;
export const SLURM_TEST_IMAGE_DIR = join(root, "images", "slurm-test");

/** A stand-in `apptainer` for the test cluster (see the script): Apptainer cannot be installed on the test machines. */
export const APPTAINER_STAND_IN = join(root, "tests", "support", "apptainer-stand-in.sh");
/** A stand-in vLLM server (Bun), and the `python3` that starts it as `python3 -m vllm.entrypoints.openai.api_server` does: the test cluster has no GPU and no vLLM. */
export const VLLM_STAND_IN = join(root, "tests", "support", "vllm-stand-in.ts");
export const VLLM_PYTHON_STAND_IN = join(root, "tests", "support", "vllm-python-stand-in.sh");
/** Run in the test host's container to keep sshd down for a while (killSshd's downMs). */
const SSHD_HELD_DOWN = join(root, "tests", "support", "sshd-held-down.py");

/** A time limit for a test that uploads the svc runtime to the test cluster (tens of MB over SSH): more than the suite's default on a busy machine. */
export const RUNTIME_UPLOAD_TEST_MS = 180_000;

/** The user sshd lets in, and the cache folder that exists in the image. */
export const SSH_TEST_USER = "svc";
export const SSH_TEST_CACHE = "/shared/cache";

function docker(args: string[]): { code: number; stdout: string; stderr: string } {
  const result = Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe", env: process.env });
  return { code: result.exitCode ?? 1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

let imageTag: string | undefined;

/** The option lists svc pins for vLLM and SGLang: the image's stand-ins check their arguments against these same files. */
const ENGINE_OPTIONS_DIR = join(root, "orchestrator-svc", "src", "engines", "options");
const engineOptionFiles = () => readdirSync(ENGINE_OPTIONS_DIR).filter((name) => name.endsWith(".json")).sort();

/** Every file under `dir` (Python's __pycache__ left out), by its path relative to `dir`, sorted. */
function filesUnder(dir: string, under = dir): string[] {
  return readdirSync(dir)
    .filter((name) => name !== "__pycache__")
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name), under) : [relative(under, join(dir, name))]));
}

/**
 * Builds the image once per content: the tag carries a hash of the image folder and of the base
 * image, so an unchanged image is reused across runs (and rebuilt when either changes).
 */
export function ensureSlurmTestImage(): string {
  if (imageTag) return imageTag;
  const prebuilt = prebuiltImage("slurm-test");
  if (prebuilt) {
    ensureDocker();
    return (imageTag = prebuilt);
  }
  const base = ensureBaseImage();
  const baseId = docker(["image", "inspect", "--format", "{{.Id}}", base]).stdout.trim();
  const hash = createHash("sha256").update(baseId);
  for (const name of filesUnder(SLURM_TEST_IMAGE_DIR)) hash.update(name).update(readFileSync(join(SLURM_TEST_IMAGE_DIR, name)));
  for (const name of engineOptionFiles()) hash.update(name).update(readFileSync(join(ENGINE_OPTIONS_DIR, name)));
  // The staged tiny models: by the sources of their generator.
  const modelsSrc = join(root, "runtimes", "tiny-models", "src");
  for (const name of readdirSync(modelsSrc).sort()) hash.update(name).update(readFileSync(join(modelsSrc, name)));
  const tag = `svc-slurm-test:${hash.digest("hex").slice(0, 16)}`;
  if (docker(["image", "inspect", tag]).code !== 0) {
    const context = mkdtempSync(join(tmpdir(), "svc-slurm-test-"));
    try {
      cpSync(SLURM_TEST_IMAGE_DIR, context, { recursive: true, filter: (path) => !path.includes("__pycache__") });
      const staged = join(context, "staged");
      mkdirSync(join(staged, "engine-options"), { recursive: true });
      for (const name of engineOptionFiles()) cpSync(join(ENGINE_OPTIONS_DIR, name), join(staged, "engine-options", name));
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

/** A free port on loopback now, for the container's daemons (host network, so they must be told it beforehand). */
export const freeLoopbackPort = () => freePort("127.0.0.1");

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
  /** Runs a command in the container as `user`, in their home (for assertions about the server's side, and jobs of their own). */
  execAsUser(command: string, user?: string): Promise<{ exitCode: number; output: string }>;
  /**
   * Creates another account, as a cluster's new user gets one: key-only login with `publicKey`, a
   * home with nothing in it but .ssh/authorized_keys, and the system's PATH (no Bun on it).
   */
  addUser(name: string, publicKey: string): Promise<void>;
  /**
   * Kills every sshd process (their connections drop; the container starts sshd again 0.2 s later).
   * Resolves once they are killed, with `back`: the time (Date.now()) sshd first greeted a new connection again.
   * `downMs`: keeps sshd down that long (sshd-held-down.py), as a login node slow to restart it would.
   */
  killSshd(options?: { downMs?: number }): Promise<{ back: Promise<number> }>;
  stop(): Promise<void>;
}

/** Whether an SSH server greets a connection to 127.0.0.1:`port` ("SSH-2.0-…") within half a second. */
function sshdGreets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const done = (greeted: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(greeted);
    };
    const timer = setTimeout(() => done(false), 500);
    socket.once("data", (data) => done(data.toString("latin1").startsWith("SSH-")));
    socket.once("error", () => done(false));
  });
}

class PortTakenError extends Error {}

const SSHD_UP = /Server listening on 127\.0\.0\.1 port/;
/** sshd's and slurmctld/slurmd's words when their port was taken between the pick and the bind. */
const BIND_FAILED = /Cannot bind any address|Address already in use/;

/**
 * One try at the container on the picked ports: a daemon that finds its port taken (another test's
 * container or process bound it meanwhile) ends the try with PortTakenError, so the caller picks again.
 */
async function startContainer(tag: string, port: number, options: SshTestHostOptions) {
  const slurmPorts: Record<string, string> = options.slurm ? { SLURMCTLD_PORT: String(await freeLoopbackPort()), SLURMD_PORT: String(await freeLoopbackPort()) } : {};
  if (options.slurm && options.gpuNodes) slurmPorts.SLURMD_GPU_PORTS = `${await freeLoopbackPort()} ${await freeLoopbackPort()}`;
  // testcontainers (with dockerode and gRPC, ~450 ms) loads with the first test host, not with every test file.
  const { GenericContainer, Wait } = await import("testcontainers");
  let starting = new GenericContainer(tag).withLabels(testFileLabels()).withNetworkMode("host");
  if (options.sharedRuntime) starting = starting.withBindMounts([{ source: sharedRuntimeFolder(), target: SHARED_RUNTIME_TARGET, mode: "rw" }]);
  if (options.cpus !== undefined) starting = starting.withResourcesQuota({ cpu: options.cpus });
  const container = await starting
    .withEnvironment({ SSHD_PORT: String(port), AUTHORIZED_KEYS: options.authorizedKeys.join("\n"), ...slurmPorts })
    .withWaitStrategy(Wait.forLogMessage(new RegExp(`${SSHD_UP.source}|${BIND_FAILED.source}|slurm did not come up`)))
    .withStartupTimeout(60_000)
    .start();
  const logs = docker(["logs", container.getId()]);
  const said = `${logs.stdout}\n${logs.stderr}`;
  if (SSHD_UP.test(said)) return { container, port };
  await container.stop({ timeout: 1 }).catch(() => undefined);
  if (BIND_FAILED.test(said)) throw new PortTakenError(`a port of the test host was taken meanwhile:\n${said.slice(-2000)}`);
  throw new Error(`the test host did not come up:\n${said.slice(-4000)}`);
}

/** Where svc installs its runtime for the profile home `~/svc` of the user `svc` (runtimeRoot in orchestrator-svc). */
const SHARED_RUNTIME_TARGET = "/home/svc/svc/runtime";
/** Runtime versions in the shared folder untouched this long are removed (each change to the runtimes makes a new one). */
const STALE_RUNTIME_MS = 6 * 3600_000;

/**
 * One folder on this machine that every test cluster started with `sharedRuntime` mounts as the svc
 * user's runtime folder, as login nodes share a home: the first file's run installs the svc runtime
 * (tens of MB through SSH, unpacked and hashed), the others find it there. Installs of the same
 * version at once are safe (each goes to its own folder and appears by one `mv -T`), as on a real
 * cluster. Writable by the container's `svc`, whatever its uid.
 */
export function sharedRuntimeFolder(): string {
  const folder = join(tmpdir(), "svc-test-cluster-runtime");
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o777);
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_RUNTIME_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Written by the container's user: a machine where the tests do not run as root keeps it.
    }
  }
  return folder;
}

export interface SshTestHostOptions {
  authorizedKeys: string[];
  /** The svc user's runtime folder is sharedRuntimeFolder() (tests that install or remove runtimes themselves leave it out). */
  sharedRuntime?: boolean;
  port?: number;
  /** Also start a Slurm cluster in the container (see startSlurmCluster). */
  slurm?: boolean;
  /** With `slurm`: also the partition `gpu` of two nodes with four a100 GPUs each (see GPU_TEST_NODES). */
  gpuNodes?: boolean;
  /** The CPU the whole container may use, in cores (Docker's --cpus): for a job that computes until its time limit ends it. */
  cpus?: number;
}

/**
 * Starts sshd on 127.0.0.1:`port` (a free one by default) accepting `authorizedKeys` for the user
 * `svc`. Each start generates new host keys, so a second host on the same port is a changed host.
 */
export async function startSshTestHost(options: SshTestHostOptions): Promise<SshTestHost> {
  const tag = ensureSlurmTestImage();
  const pick = async () => options.port ?? (await freeLoopbackPort());
  const { container, port } = await retryWhilePortTaken(pick, (port) => startContainer(tag, port, options), (error) => error instanceof PortTakenError);
  return {
    host: "127.0.0.1",
    port,
    user: SSH_TEST_USER,
    cache: SSH_TEST_CACHE,
    container,
    // In the user's home, as after an SSH login: sbatch writes a job's default output file into the current folder.
    execAsUser: (command, user = SSH_TEST_USER) => container.exec(["runuser", "-u", user, "--", "sh", "-c", `cd "$HOME" && ${command}`]),
    async addUser(name, publicKey) {
      if (!/^[a-z][a-z0-9-]{0,30}$/.test(name)) throw new Error(`bad user name ${name}`);
      const script = [
        `useradd --no-create-home --home-dir /home/${name} --shell /bin/bash ${name}`,
        `usermod -p '*' ${name}`,
        `install -d -o ${name} -g ${name} -m 700 /home/${name} /home/${name}/.ssh`,
        `printf '%s\\n' "$KEY" > /home/${name}/.ssh/authorized_keys`,
        `chown ${name}:${name} /home/${name}/.ssh/authorized_keys && chmod 600 /home/${name}/.ssh/authorized_keys`,
      ].join(" && ");
      const result = await container.exec(["env", `KEY=${publicKey}`, "sh", "-c", script]);
      if (result.exitCode !== 0) throw new Error(`creating the user ${name} failed: ${result.output}`);
    },
    async killSshd({ downMs = 0 } = {}) {
      const killed = await container.exec(["pkill", "-x", "sshd"]);
      if (killed.exitCode !== 0) throw new Error(`pkill sshd failed: ${killed.output}`);
      const heldDown = downMs > 0 ? container.exec(["python3", "-c", readFileSync(SSHD_HELD_DOWN, "utf8"), String(port), String(downMs / 1000)]) : undefined;
      // Down first (the killed sshd may still answer for a moment), then back.
      const back = async () => {
        const held = await heldDown;
        if (held && held.exitCode !== 0) throw new Error(`keeping sshd down failed: ${held.output}`);
        const deadline = Date.now() + 30_000;
        for (const wanted of [false, true]) {
          while ((await sshdGreets(port)) !== wanted) {
            if (Date.now() > deadline) throw new Error(`sshd did not ${wanted ? "come back" : "stop"} within 30 s of pkill`);
            await Bun.sleep(10);
          }
        }
        return Date.now();
      };
      return { back: back() };
    },
    stop: async () => {
      await container.stop({ timeout: 1 });
    },
  };
}

/**
 * The test cluster's GPU nodes (with `gpuNodes`): partition `gpu`, not the default, of two nodes at
 * 127.0.0.1, each its own slurmd with `Gres=gpu:a100:4` on device files that nothing opens
 * (images/slurm-test/gpu-nodes.conf.in). The default partition `debug` and its node `localhost`
 * stay as without them, with no GPUs.
 */
export const GPU_TEST_NODES = { partition: "gpu", nodes: ["gpu-a", "gpu-b"], gpuType: "a100", gpusPerNode: 4, cpusPerNode: 16, memoryMbPerNode: 64_000, timeLimit: "4:00:00" } as const;

/**
 * A one-node Slurm cluster (munge, slurmctld, slurmd on free loopback ports) behind the test sshd:
 * the user `svc` submits with sbatch; the shared cache /shared/cache holds the tiny models. svc
 * installs its runtime in the profile's home (e.g. ~/svc) itself. `gpuNodes: true` adds the
 * partition `gpu` of GPU_TEST_NODES (two more slurmd: about 5 MB each, no measurable start-up time;
 * opt-in so that the clusters of tests about CPU services have no GPUs anywhere).
 */
export function startSlurmCluster(options: Omit<SshTestHostOptions, "slurm" | "port">): Promise<SshTestHost> {
  return startSshTestHost({ ...options, slurm: true });
}
