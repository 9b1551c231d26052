import { randomBytes } from "node:crypto";
import { Readable, pipeline } from "node:stream";
import { createGzip } from "node:zlib";
import type { RuntimeInstall, SlurmProfile } from "@svc/contracts";
import { formatBytes } from "@svc/contracts/format-bytes";
import { connectionKey, shCommand, type ClusterConnection } from "@svc/ssh";
import { EngineError } from "../../engine-error";
import { clusterFailure } from "../cluster-failure";
import type { Bundle, BundleSource } from "./bundles";
import type { RuntimeInstalls } from "./installs";
import { installScript, listScript, parseList, parseProbe, probeScript, removeScript, versionDir, type InstalledVersion } from "./scripts";

/** An upload may take long on a slow link; a connection that drops ends it sooner. */
const INSTALL_TIMEOUT_MS = 60 * 60 * 1000;

/** What the runtimes need from the engine that owns the connection. */
export interface RuntimeDeps {
  bundles: BundleSource;
  installs: RuntimeInstalls;
}

/** Counts the bytes going through a stream. */
function counted(stream: ReadableStream<Uint8Array>, count: (bytes: number) => void): ReadableStream<Uint8Array> {
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        count(chunk.length);
        controller.enqueue(chunk);
      },
    }),
  );
}

/** gzip at level 1: the bundle halves for ~3 s of CPU. */
function gzipped(stream: ReadableStream<Uint8Array>): { stream: ReadableStream<Uint8Array>; stop(): void } {
  const source = Readable.fromWeb(stream as unknown as import("node:stream/web").ReadableStream<Uint8Array>);
  const gzip = pipeline(source, createGzip({ level: 1, chunkSize: 256 * 1024 }), () => {});
  return { stream: Readable.toWeb(gzip) as unknown as ReadableStream<Uint8Array>, stop: () => source.destroy() };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The svc runtime on one profile's cluster, over that profile's connection: which bundle its
 * login node's CPU needs, whether that version is installed, installing it (one streamed tar.gz,
 * checked on the cluster before it counts), listing and removing versions.
 */
export class ClusterRuntime {
  private machine: string | undefined;

  constructor(
    private readonly connection: ClusterConnection,
    /** The profile as it is now (home may change while the connection stays). */
    private readonly profile: () => SlurmProfile,
    private readonly deps: RuntimeDeps,
  ) {}

  /** The login node's CPU and the versions installed there, in one round trip. */
  private async probe(): Promise<{ machine: string; versions: string[] }> {
    const { host, home } = this.profile();
    const result = await this.connection.run(probeScript(home)).catch((error) => {
      throw clusterFailure(error, `Could not look for the svc runtime on ${host}`);
    });
    const found = parseProbe(result.stdout);
    if (!found.machine) throw new EngineError("failed", "engine_error", `Could not tell the CPU of ${host} (uname -m): ${result.stderr.trim()}`);
    this.machine = found.machine;
    return found;
  }

  /** The bundle this cluster's jobs run (its CPU is asked once per connection). */
  async bundle(): Promise<Bundle> {
    const machine = this.machine ?? (await this.probe()).machine;
    return this.deps.bundles.forMachine(machine);
  }

  /** Where a version's files are on the cluster. */
  dir(version: string): string {
    return versionDir(this.profile().home, version);
  }

  /**
   * Makes sure the bundle is installed, uploading it when it is not (joining an upload already on
   * its way). `install` is the finished install when this call found it missing.
   */
  async ensure(): Promise<{ bundle: Bundle; install?: RuntimeInstall }> {
    const probe = await this.probe();
    const bundle = await this.deps.bundles.forMachine(probe.machine);
    if (probe.versions.includes(bundle.id)) return { bundle };
    return { bundle, install: await this.start(bundle, probe.versions).done };
  }

  /** `svc runtime install`: the install task (already finished when the version was there). */
  async install(): Promise<RuntimeInstall> {
    const probe = await this.probe();
    const bundle = await this.deps.bundles.forMachine(probe.machine);
    if (probe.versions.includes(bundle.id)) return this.deps.installs.alreadyThere(this.startInfo(bundle));
    const { task, done } = this.start(bundle, probe.versions);
    done.catch(() => {});
    return task;
  }

  private startInfo(bundle: Bundle) {
    const { name, host } = this.profile();
    return { profile: name, host, version: bundle.id, arch: bundle.arch, bytesTotal: bundle.tarBytes };
  }

  private start(bundle: Bundle, others: string[]) {
    const profile = this.profile();
    const target = `${connectionKey(profile)}|${profile.home}|${bundle.id}`;
    return this.deps.installs.run(target, this.startInfo(bundle), async (task) => {
      const started = performance.now();
      await this.upload(bundle, task);
      const had = others.length === 0 ? "it had none" : `it had only other versions (${others.join(", ")}), which stay until 'svc runtime rm'`;
      task.notes.push(`Installed the svc runtime ${bundle.id} (${bundle.arch}) on ${profile.host} in ${this.dir(bundle.id)}: ${formatBytes(task.bytesSent)} sent in ${seconds(performance.now() - started)}; ${had}.`);
      for (const { task: name, reason } of bundle.unavailable) task.notes.push(`${name} cannot run from it: ${reason}.`);
    });
  }

  /** One streamed tar.gz into a temporary folder; the cluster checks the content hash, then renames it into place. */
  private async upload(bundle: Bundle, task: RuntimeInstall): Promise<void> {
    const { host, home } = this.profile();
    const source = counted(bundle.tar(), (bytes) => (task.bytesDone += bytes));
    const compressed = gzipped(source);
    const script = installScript(home, bundle, randomBytes(6).toString("hex"));
    let result;
    try {
      result = await this.connection.send(shCommand(script), counted(compressed.stream, (bytes) => (task.bytesSent += bytes)), { timeoutMs: INSTALL_TIMEOUT_MS });
    } catch (error) {
      throw clusterFailure(error, `The upload of the svc runtime to ${host} failed`, "runtime_install_failed");
    } finally {
      compressed.stop();
    }
    if (result.code !== 0 || !/^@installed$/m.test(result.stdout)) {
      const said = result.stdout.match(/^@error (.*)$/m)?.[1] ?? (result.stderr.trim() || (result.code === null ? "the connection closed before it finished" : `exit code ${result.code}`));
      throw new EngineError("failed", "runtime_install_failed", `The svc runtime ${bundle.id} was not installed on ${host}: ${said}. Nothing of it counts as installed; the next run or 'svc runtime install' starts again.`);
    }
  }

  /** The installed versions, and the version each of the given jobs' scripts start (by service id). */
  async list(workDirs: string[] = []): Promise<{ machine: string; versions: InstalledVersion[]; uses: Map<string, string> }> {
    const { host, home } = this.profile();
    const machine = this.machine ?? (await this.probe()).machine;
    const result = await this.connection.run(listScript(home, workDirs)).catch((error) => {
      throw clusterFailure(error, `Could not list the svc runtimes on ${host}`);
    });
    return { machine, ...parseList(result.stdout) };
  }

  /** Removes versions; returns those that were there. */
  async remove(versions: string[]): Promise<string[]> {
    const { host, home } = this.profile();
    const result = await this.connection.run(removeScript(home, versions), { timeoutMs: 5 * 60_000 }).catch((error) => {
      throw clusterFailure(error, `Could not remove svc runtimes on ${host}`);
    });
    return [...result.stdout.matchAll(/^@removed ([0-9a-f]{16})$/gm)].map((match) => match[1]);
  }
}
