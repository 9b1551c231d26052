import type { SlurmProfile } from "@svc/contracts";
import { connectionKey, remotePathWord, shCommand, Tunnels, type ClusterConnection } from "@svc/ssh";
import { instanceKey, type Engine, type EngineCapabilities, type LaunchSpec, type Observation, type Submitted } from "../engine";
import { EngineError } from "../engine-error";
import type { ApptainerImages } from "./apptainer-images";
import { clusterFailure } from "./cluster-failure";
import { inside } from "./cluster-paths";
import { commentFor, driverOf, JOB_FILES, renderJobScript } from "./job-script";
import { formatHandle, observe, parseHandle, parseStatusOutput, statusScript } from "./job-status";
import { DEFAULT_SLURM_RUNTIME, isGpuServer, type RuntimeTarget } from "./runtime-command";
import { serverOf } from "../api-key";
import { GPU_SERVERS, serverProgram } from "../gpu-servers";
import type { BundleSource } from "./runtime/bundles";
import { ClusterRuntime } from "./runtime/cluster-runtime";
import type { RuntimeInstalls } from "./runtime/installs";
import type { GpuEngine } from "@svc/contracts";
import type { FoundVersion } from "../versions/probe";
import { probeCommand, readProbe } from "../versions/probe";

/** Copying a file (a batch's requests or results, up to a few hundred MB) may take long on a slow link. */
const FILE_TRANSFER_TIMEOUT_MS = 30 * 60_000;

/** Writes standard input to `path` through a temporary file beside it, so a cut transfer leaves no half file. */
const putFileScript = (path: string) => {
  const word = remotePathWord(path);
  return `set -e; mkdir -p "$(dirname ${word})"; cat > ${word}.part; mv -f ${word}.part ${word}`;
};

/** The work folder of a service's job on the cluster: <home>/jobs/<service id>. */
export const slurmWorkDir = (profile: Pick<SlurmProfile, "home">, serviceId: string) => inside(profile.home, "jobs", serviceId);

interface Reach {
  profile: SlurmProfile;
  connection: ClusterConnection;
  tunnels: Tunnels;
  runtime: ClusterRuntime;
}

/** What every SlurmEngine shares: how to reach a cluster, the runtime bundles and their installs, Apptainer images. */
export interface SlurmEngineDeps {
  connect(profile: SlurmProfile): ClusterConnection;
  bundles: BundleSource;
  installs: RuntimeInstalls;
  apptainer: ApptainerImages;
}

/**
 * Runs one slurm profile's services as Slurm jobs, through that profile's one cluster connection
 * (shared by all its services, so a status pass is one round trip): sbatch to submit, one status
 * script per tick for all jobs, scancel to stop, the job's output file for logs, and a local
 * 127.0.0.1 port tunnelled to each running job's server. The same object serves the profile for as
 * long as the application runs; a change of host, user, port or key opens a new connection.
 */
export class SlurmEngine implements Engine {
  readonly kind = "slurm" as const;
  private reach: Reach | undefined;

  constructor(
    readonly profileName: string,
    /** The profile as it is now (asked for when a record of this profile is handled first, e.g. after a restart). */
    private readonly loadProfile: () => Promise<SlurmProfile>,
    private readonly deps: SlurmEngineDeps,
  ) {}

  get capabilities(): EngineCapabilities {
    const runtime = this.reach?.profile.runtime ?? DEFAULT_SLURM_RUNTIME;
    return { followsLogs: true, tunnels: !this.reach?.connection.local, watches: false, dataPaths: "cluster", slurmJobOptions: true, runsImages: runtime === "apptainer" };
  }

  /** Takes the profile as given now: changed home, cache or runtime apply at once; a changed host, user, port or key opens a new connection. */
  use(profile: SlurmProfile): this {
    if (this.reach && connectionKey(this.reach.profile) === connectionKey(profile)) {
      this.reach.profile = profile;
      return this;
    }
    this.close();
    const connection = this.deps.connect(profile);
    const reach: Reach = { profile, connection, tunnels: new Tunnels(connection), runtime: new ClusterRuntime(connection, () => reach.profile, this.deps) };
    this.reach = reach;
    return this;
  }

  private async current(): Promise<Reach> {
    if (!this.reach) this.use(await this.loadProfile());
    return this.reach!;
  }

  /** The connection in use (the bench counts its round trips). */
  async connection(): Promise<ClusterConnection> {
    return (await this.current()).connection;
  }

  /** The svc runtime on this profile's cluster (`svc runtime install|ls|rm`). */
  async runtime(): Promise<ClusterRuntime> {
    return (await this.current()).runtime;
  }

  /**
   * How the job starts its server, per the profile's runtime kind. With `prepare` (a submit, not a
   * dry run) it first makes that possible: the svc runtime bundle installed, or the Apptainer
   * image pulled or built; its notes say what it did. A batch job also needs the bundle for its
   * driver, whatever runs the server (the bare runtime, vLLM, SGLang, an Apptainer image).
   */
  private async target(spec: LaunchSpec, reach: Reach, prepare: boolean): Promise<{ target: RuntimeTarget; notes: string[] }> {
    const { profile, connection, runtime } = reach;
    const bundled = async () => {
      const { bundle, install } = prepare ? await runtime.ensure() : { bundle: await runtime.bundle(), install: undefined };
      const dir = runtime.dir(bundle.id);
      return { bundle, notes: install?.notes ?? [], files: { version: bundle.id, dir, bun: `${dir}/${bundle.layout.bun}`, main: `${dir}/${bundle.layout.main(spec.task)}` } };
    };
    const withDriver = async (target: RuntimeTarget, notes: string[]) => {
      if (!spec.batch) return { target, notes };
      const { files, notes: installed } = await bundled();
      return { target: { ...target, driver: driverOf(files, spec.task) }, notes: [...notes, ...installed] };
    };
    if ((profile.runtime ?? DEFAULT_SLURM_RUNTIME) === "apptainer") {
      const plan = await this.deps.apptainer.plan(spec.image, profile, connection);
      const notes = prepare ? await this.deps.apptainer.prepare(plan, profile, connection) : [];
      return withDriver({ runtime: "apptainer", sif: plan.sif, prepare: plan.prepare }, notes);
    }
    if (isGpuServer(spec.image)) return withDriver({ runtime: "bare" }, []);
    const { bundle, notes, files } = await bundled();
    if (!bundle.tasks.includes(spec.task)) {
      const why = bundle.unavailable.find((u) => u.task === spec.task)?.reason ?? "it is not in the bundle";
      throw new EngineError("invalid", "task_unavailable", `${spec.task} cannot run on ${profile.host} (${bundle.arch}): ${why}.`);
    }
    return { target: { runtime: "bare", bundle: files }, notes };
  }

  async render(spec: LaunchSpec): Promise<string> {
    const reach = await this.current();
    return renderJobScript(spec, (await this.target(spec, reach, false)).target);
  }

  /**
   * Writes the script (and the API key, which goes nowhere else) into the job's work folder and
   * submits it from there, in one round trip. Everything is written with umask 077: the folder
   * 0700, its files 0600 (Slurm creates the output file with the submitting umask too). Files left
   * by an earlier run are replaced, not rewritten, so they do not keep a wider mode.
   */
  async submit(spec: LaunchSpec): Promise<Submitted> {
    const reach = await this.current();
    const { profile, connection } = reach;
    // Values the script cannot hold are refused before anything is installed.
    renderJobScript(spec, { runtime: "bare" });
    const { target, notes } = await this.target(spec, reach, true);
    const script = renderJobScript(spec, target);
    const workDir = slurmWorkDir(profile, instanceKey(spec.serviceId, spec.generation));
    const dir = remotePathWord(workDir);
    // The script goes on sh's standard input, so nothing in it (the key included) is on a command line.
    const write = (file: string, text: string) => `printf '%s' '${Buffer.from(text).toString("base64")}' | base64 -d > ${file}`;
    const submit = [
      "set -e",
      "umask 077",
      `mkdir -p ${dir}`,
      `cd ${dir}`,
      "chmod 700 .",
      `rm -f ${JOB_FILES.port} ${JOB_FILES.script} ${JOB_FILES.apiKey} ${JOB_FILES.progress}`,
      `if [ -e ${JOB_FILES.output} ]; then chmod 600 ${JOB_FILES.output}; fi`,
      ...(spec.apiKey === undefined ? [] : [write(JOB_FILES.apiKey, spec.apiKey)]),
      write(JOB_FILES.script, script),
      `sbatch --parsable ${JOB_FILES.script}`,
    ].join("\n");
    let result;
    try {
      result = await connection.run(submit);
    } catch (error) {
      throw clusterFailure(error, `Could not submit to ${profile.host}`);
    }
    const jobId = result.stdout.trim().split("\n").pop()?.split(";")[0] ?? "";
    if (result.code !== 0 || !/^[0-9]+$/.test(jobId)) {
      const said = result.stderr.trim() || result.stdout.trim() || `exit code ${result.code}`;
      throw new EngineError("refused", "sbatch_refused", `sbatch on ${profile.host} refused the job: ${said}`);
    }
    return { handle: formatHandle({ jobId, workDir }), host: null, port: null, notes, runtime: describeTarget(target, spec.image) };
  }

  async inspect(handles: string[]): Promise<Map<string, Observation>> {
    const { profile, connection, tunnels } = await this.current();
    const refs = handles.map(parseHandle);
    const result = await connection.run(statusScript(refs)).catch((error) => {
      throw clusterFailure(error, `Could not check the jobs on ${profile.host}`);
    });
    if (result.code !== 0) throw new EngineError("failed", "engine_error", `the status check on ${profile.host} failed (exit ${result.code}): ${result.stderr.trim().slice(0, 500)}`);
    const statuses = parseStatusOutput(result.stdout);
    const observations = new Map<string, Observation>();
    await Promise.all(
      handles.map(async (handle, i) => {
        const { jobId } = refs[i];
        const status = statuses.get(jobId);
        let observation = observe(status);
        if (observation.phase === "running") {
          const endsAt = status?.endsAt;
          if (!status?.server) observation = { phase: "running", host: "127.0.0.1", port: null };
          else if (!connection.local) observation = { phase: "running", host: "127.0.0.1", port: await tunnels.ensure(jobId, status.server.host, status.server.port) };
          if (endsAt) observation = { ...observation, endsAt };
        } else tunnels.close(jobId);
        observations.set(handle, status?.progress === undefined ? observation : { ...observation, progress: status.progress });
      }),
    );
    return observations;
  }

  async stop(handle: string): Promise<void> {
    const { profile, connection } = await this.current();
    const { jobId } = parseHandle(handle);
    let result;
    try {
      result = await connection.run(`scancel ${jobId}`);
    } catch (error) {
      throw clusterFailure(error, `Could not reach ${profile.host} to cancel job ${jobId}`);
    }
    if (result.code !== 0 && !/Invalid job id|already completing or completed/i.test(result.stderr)) {
      throw new EngineError("failed", "scancel_failed", `scancel ${jobId} on ${profile.host} failed: ${result.stderr.trim()}`);
    }
  }

  async logs(handle: string, options: { follow: boolean; tail?: number }): Promise<ReadableStream<Uint8Array>> {
    const { profile, connection } = await this.current();
    const { workDir } = parseHandle(handle);
    const file = `${remotePathWord(workDir)}/${JOB_FILES.output}`;
    const lines = options.tail === undefined ? "+1" : String(Math.max(0, Math.floor(options.tail)));
    const command = options.follow ? `exec tail -n ${lines} -F ${file} 2>/dev/null` : `tail -n ${lines} ${file} 2>/dev/null; exit 0`;
    try {
      return await connection.stream(command);
    } catch (error) {
      throw clusterFailure(error, `Could not read the job's output on ${profile.host}`);
    }
  }

  /**
   * The version of `engine` a job of this profile would run: inside the Apptainer image of `image`
   * (when it is on the cluster already), or in a bare job's python3 (image null).
   */
  async engineVersion(engine: GpuEngine, image: string | null): Promise<FoundVersion> {
    const { profile, connection } = await this.current();
    let sif: string | undefined;
    if (image !== null) {
      const plan = await this.deps.apptainer.plan(image, profile, connection);
      if (!plan.found) return { version: null, how: `the Apptainer image ${plan.sif} is not on ${profile.host} yet` };
      sif = plan.sif;
    }
    const command = probeCommand(engine, sif);
    const result = await connection.run(command, { timeoutMs: 60_000, maxBytes: 64 * 1024 }).catch((error) => {
      throw clusterFailure(error, `Could not read ${GPU_SERVERS[engine].label}'s version on ${profile.host}`);
    });
    const version = result.code === 0 ? readProbe(result.stdout) : null;
    const where = sif ? `the package in ${sif}` : `python3 on ${profile.host}`;
    return { version, how: version ? where : `${where}: no ${GPU_SERVERS[engine].module.split(".")[0]} module (${(result.stderr.trim().split("\n").at(-1) ?? "").slice(0, 200) || `exit code ${result.code}`})` };
  }

  async readJobFile(_handle: string, path: string, options: { maxBytes?: number } = {}): Promise<string | undefined> {
    const { profile, connection } = await this.current();
    const result = await connection.run(`cat ${remotePathWord(path)}`, { maxBytes: options.maxBytes, timeoutMs: options.maxBytes ? FILE_TRANSFER_TIMEOUT_MS : undefined }).catch((error) => {
      throw clusterFailure(error, `Could not read ${path} on ${profile.host}`);
    });
    return result.code === 0 ? result.stdout : undefined;
  }

  async putJobFile(path: string, data: Uint8Array): Promise<void> {
    const { profile, connection } = await this.current();
    const result = await connection.send(shCommand(putFileScript(path)), data, { timeoutMs: FILE_TRANSFER_TIMEOUT_MS }).catch((error) => {
      throw clusterFailure(error, `Could not copy ${path} to ${profile.host}`);
    });
    if (result.code !== 0) throw new EngineError("failed", "engine_error", `Could not write ${path} on ${profile.host}: ${result.stderr.trim() || `exit code ${result.code}`}`);
  }

  async release(handle: string): Promise<void> {
    this.reach?.tunnels.close(parseHandle(handle).jobId);
  }

  /** Jobs of this user whose comment names one of these services (svc:<id>), or jobs of them (instance keys, svc:<id>.<generation>). */
  async adopt(serviceIds: string[]): Promise<Map<string, string>> {
    const { profile, connection } = await this.current();
    const wanted = new Set(serviceIds);
    const result = await connection.run(`squeue -h -t all -u "$(id -un)" -o '%i|%k'`).catch((error) => {
      throw clusterFailure(error, `Could not list the jobs on ${profile.host}`);
    });
    if (result.code !== 0) throw new EngineError("failed", "engine_error", `squeue on ${profile.host} failed: ${result.stderr.trim()}`);
    const found = new Map<string, string>();
    for (const line of result.stdout.split("\n")) {
      const [jobId, comment] = line.trim().split("|");
      const id = comment?.startsWith("svc:") ? comment.slice(4) : undefined;
      if (id && wanted.has(id) && commentFor(id) === comment) found.set(id, formatHandle({ jobId, workDir: slurmWorkDir(profile, id) }));
    }
    return found;
  }

  close() {
    this.reach?.tunnels.closeAll();
    this.reach?.connection.close();
    this.reach = undefined;
  }
}

/** What a job runs its server with, as `svc details` shows it: never a container image for a bare job. */
function describeTarget(target: RuntimeTarget, image: string): string {
  if (target.runtime === "apptainer") return `apptainer ${target.sif}`;
  const server = serverOf(image);
  if (!target.bundle) return `${GPU_SERVERS[server === "svc" ? "vllm" : server].label} (bare: ${serverProgram(server === "svc" ? "vllm" : server, false).join(" ")})`;
  return `svc runtime ${target.bundle.version} (bare: ${target.bundle.main})`;
}
