import type { SlurmProfile } from "@svc/contracts";
import { connectionKey, remotePathWord, SshError, Tunnels, type ClusterConnection } from "@svc/ssh";
import type { Engine, EngineCapabilities, LaunchSpec, Observation, Submitted } from "../engine";
import { EngineError } from "../engine-error";
import { commentFor, JOB_FILES, renderJobScript } from "./job-script";
import { formatHandle, observe, parseHandle, parseStatusOutput, statusScript } from "./job-status";
import { DEFAULT_SLURM_RUNTIME } from "./runtime-command";

const trimSlash = (path: string) => path.replace(/\/+$/, "");

/** The work folder of a service's job on the cluster: <home>/jobs/<service id>. */
export const slurmWorkDir = (profile: Pick<SlurmProfile, "home">, serviceId: string) => `${trimSlash(profile.home)}/jobs/${serviceId}`;

/** A failure to reach the cluster, or anything else the connection threw, as an EngineError. */
function engineFailure(error: unknown, what: string): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof SshError) return new EngineError("unreachable", "cluster_unreachable", `${what}: ${error.message}`);
  return new EngineError("failed", "engine_error", `${what}: ${(error as Error).message}`);
}

interface Reach {
  profile: SlurmProfile;
  connection: ClusterConnection;
  tunnels: Tunnels;
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
    private readonly connect: (profile: SlurmProfile) => ClusterConnection,
  ) {}

  get capabilities(): EngineCapabilities {
    return { followsLogs: true, tunnels: !this.reach?.connection.local, watches: false };
  }

  /** Takes the profile as given now: changed home, cache or runtime apply at once; a changed host, user, port or key opens a new connection. */
  use(profile: SlurmProfile): this {
    if (this.reach && connectionKey(this.reach.profile) === connectionKey(profile)) {
      this.reach.profile = profile;
      return this;
    }
    this.close();
    const connection = this.connect(profile);
    this.reach = { profile, connection, tunnels: new Tunnels(connection) };
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

  private async script(spec: LaunchSpec, profile: SlurmProfile): Promise<string> {
    return renderJobScript(spec, { runtime: profile.runtime ?? DEFAULT_SLURM_RUNTIME, home: profile.home, cache: profile.cache });
  }

  async render(spec: LaunchSpec): Promise<string> {
    return this.script(spec, (await this.current()).profile);
  }

  /**
   * Makes the runtime the job starts available on the cluster. The `bare` and `apptainer` runtimes
   * are expected in place (README); installing them over `connection.send` belongs here.
   */
  private async prepareRuntime(_reach: Reach, _spec: LaunchSpec): Promise<string[]> {
    return [];
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
    const script = await this.script(spec, profile);
    const notes = await this.prepareRuntime(reach, spec);
    const workDir = slurmWorkDir(profile, spec.serviceId);
    const dir = remotePathWord(workDir);
    // The script goes on sh's standard input, so nothing in it (the key included) is on a command line.
    const write = (file: string, text: string) => `printf '%s' '${Buffer.from(text).toString("base64")}' | base64 -d > ${file}`;
    const submit = [
      "set -e",
      "umask 077",
      `mkdir -p ${dir}`,
      `cd ${dir}`,
      "chmod 700 .",
      `rm -f ${JOB_FILES.port} ${JOB_FILES.script} ${JOB_FILES.apiKey}`,
      `if [ -e ${JOB_FILES.output} ]; then chmod 600 ${JOB_FILES.output}; fi`,
      ...(spec.apiKey === undefined ? [] : [write(JOB_FILES.apiKey, spec.apiKey)]),
      write(JOB_FILES.script, script),
      `sbatch --parsable ${JOB_FILES.script}`,
    ].join("\n");
    let result;
    try {
      result = await connection.run(submit);
    } catch (error) {
      throw engineFailure(error, `Could not submit to ${profile.host}`);
    }
    const jobId = result.stdout.trim().split("\n").pop()?.split(";")[0] ?? "";
    if (result.code !== 0 || !/^[0-9]+$/.test(jobId)) {
      const said = result.stderr.trim() || result.stdout.trim() || `exit code ${result.code}`;
      throw new EngineError("refused", "sbatch_refused", `sbatch on ${profile.host} refused the job: ${said}`);
    }
    return { handle: formatHandle({ jobId, workDir }), host: null, port: null, notes };
  }

  async inspect(handles: string[]): Promise<Map<string, Observation>> {
    const { profile, connection, tunnels } = await this.current();
    const refs = handles.map(parseHandle);
    const result = await connection.run(statusScript(refs)).catch((error) => {
      throw engineFailure(error, `Could not check the jobs on ${profile.host}`);
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
          if (!status?.server) observation = { phase: "running", host: "127.0.0.1", port: null };
          else if (!connection.local) observation = { phase: "running", host: "127.0.0.1", port: await tunnels.ensure(jobId, status.server.host, status.server.port) };
        } else tunnels.close(jobId);
        observations.set(handle, observation);
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
      throw engineFailure(error, `Could not reach ${profile.host} to cancel job ${jobId}`);
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
      throw engineFailure(error, `Could not read the job's output on ${profile.host}`);
    }
  }

  async release(handle: string): Promise<void> {
    this.reach?.tunnels.close(parseHandle(handle).jobId);
  }

  /** Jobs of this user whose comment names one of these services (svc:<id>). */
  async adopt(serviceIds: string[]): Promise<Map<string, string>> {
    const { profile, connection } = await this.current();
    const wanted = new Set(serviceIds);
    const result = await connection.run(`squeue -h -t all -u "$(id -un)" -o '%i|%k'`).catch((error) => {
      throw engineFailure(error, `Could not list the jobs on ${profile.host}`);
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
