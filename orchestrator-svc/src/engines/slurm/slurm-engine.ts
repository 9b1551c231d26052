import { ApiError, badRequest, type SlurmProfile } from "@svc/contracts";
import { remotePathWord } from "@svc/ssh";
import type { Engine, LaunchSpec, Observation, Submitted } from "../engine";
import { DEFAULT_SLURM_RUNTIME } from "../../runtimes/slurm-runtime";
import { ClusterUnreachable, type ClusterConnection } from "./connection";
import { commentFor, JOB_FILES, JobScriptError, renderJobScript } from "./job-script";
import { formatHandle, observe, parseHandle, parseStatusOutput, statusScript } from "./job-status";
import { Tunnels } from "./tunnels";

const trimSlash = (path: string) => path.replace(/\/+$/, "");

/** The work folder of a service's job on the cluster: <home>/jobs/<service id>. */
export const slurmWorkDir = (profile: Pick<SlurmProfile, "home">, serviceId: string) => `${trimSlash(profile.home)}/jobs/${serviceId}`;

function unreachable(error: unknown, what: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ClusterUnreachable) return new ApiError(502, "cluster_unreachable", `${what}: ${error.message}`);
  return new ApiError(502, "engine_error", `${what}: ${(error as Error).message}`);
}

/**
 * Runs each service as a Slurm job on one slurm profile's cluster, through that profile's one
 * connection: sbatch to submit, one status script per tick for all jobs, scancel to stop, the job's
 * output file for logs, and a local 127.0.0.1 port tunnelled to the job's server.
 */
export class SlurmEngine implements Engine {
  readonly kind = "slurm" as const;
  readonly tunnels: Tunnels;

  constructor(
    private profile: SlurmProfile,
    readonly connection: ClusterConnection,
  ) {
    this.tunnels = new Tunnels(connection);
  }

  /** Picks up changed home, cache or runtime settings of the profile. */
  update(profile: SlurmProfile) {
    this.profile = profile;
  }

  get target() {
    return { runtime: this.profile.runtime ?? DEFAULT_SLURM_RUNTIME, home: this.profile.home, cache: this.profile.cache };
  }

  render(spec: LaunchSpec): string {
    try {
      return renderJobScript(spec, this.target);
    } catch (error) {
      if (error instanceof JobScriptError) throw badRequest(error.message);
      throw error;
    }
  }

  /** Writes the script into the work folder and submits it from there, in one round trip. */
  async submit(spec: LaunchSpec): Promise<Submitted> {
    const script = this.render(spec);
    const encoded = Buffer.from(script).toString("base64");
    const dir = remotePathWord(spec.workDir);
    const submit = [
      "set -e",
      `mkdir -p ${dir}`,
      `cd ${dir}`,
      `rm -f ${JOB_FILES.port}`,
      `printf '%s' '${encoded}' | base64 -d > ${JOB_FILES.script}`,
      `sbatch --parsable ${JOB_FILES.script}`,
    ].join("\n");
    let result;
    try {
      result = await this.connection.run(submit);
    } catch (error) {
      throw unreachable(error, `Could not submit to ${this.profile.host}`);
    }
    const jobId = result.stdout.trim().split("\n").pop()?.split(";")[0] ?? "";
    if (result.code !== 0 || !/^[0-9]+$/.test(jobId)) {
      const said = result.stderr.trim() || result.stdout.trim() || `exit code ${result.code}`;
      throw new ApiError(400, "sbatch_refused", `sbatch on ${this.profile.host} refused the job: ${said}`);
    }
    return { handle: formatHandle({ jobId, workDir: spec.workDir }), host: null, port: null };
  }

  async inspect(handles: string[]): Promise<Map<string, Observation>> {
    const refs = handles.map(parseHandle);
    const result = await this.connection.run(statusScript(refs));
    if (result.code !== 0) throw new Error(`the status check on ${this.profile.host} failed (exit ${result.code}): ${result.stderr.trim().slice(0, 500)}`);
    const statuses = parseStatusOutput(result.stdout);
    const observations = new Map<string, Observation>();
    await Promise.all(
      handles.map(async (handle, i) => {
        const { jobId } = refs[i];
        const status = statuses.get(jobId);
        let observation = observe(status);
        if (observation.phase === "running") {
          if (!status?.server) observation = { phase: "running", host: "127.0.0.1", port: null };
          else if (!this.connection.local) observation = { phase: "running", host: "127.0.0.1", port: await this.tunnels.ensure(jobId, status.server.host, status.server.port) };
        } else this.tunnels.close(jobId);
        observations.set(handle, observation);
      }),
    );
    return observations;
  }

  async stop(handle: string): Promise<void> {
    const { jobId } = parseHandle(handle);
    let result;
    try {
      result = await this.connection.run(`scancel ${jobId}`);
    } catch (error) {
      throw unreachable(error, `Could not reach ${this.profile.host} to cancel job ${jobId}`);
    }
    if (result.code !== 0 && !/Invalid job id|already completing or completed/i.test(result.stderr)) {
      throw new ApiError(502, "scancel_failed", `scancel ${jobId} on ${this.profile.host} failed: ${result.stderr.trim()}`);
    }
  }

  async logs(handle: string, options: { follow: boolean; tail?: number }): Promise<ReadableStream<Uint8Array>> {
    const { workDir } = parseHandle(handle);
    const file = `${remotePathWord(workDir)}/${JOB_FILES.output}`;
    const lines = options.tail === undefined ? "+1" : String(Math.max(0, Math.floor(options.tail)));
    const command = options.follow ? `exec tail -n ${lines} -F ${file} 2>/dev/null` : `tail -n ${lines} ${file} 2>/dev/null; exit 0`;
    try {
      return await this.connection.stream(command);
    } catch (error) {
      throw unreachable(error, `Could not read the job's output on ${this.profile.host}`);
    }
  }

  async release(handle: string): Promise<void> {
    this.tunnels.close(parseHandle(handle).jobId);
  }

  /** Jobs of this user whose comment names one of these services (svc:<id>). */
  async adopt(serviceIds: string[]): Promise<Map<string, string>> {
    const wanted = new Set(serviceIds);
    const result = await this.connection.run(`squeue -h -t all -u "$(id -un)" -o '%i|%k'`);
    if (result.code !== 0) throw new Error(`squeue on ${this.profile.host} failed: ${result.stderr.trim()}`);
    const found = new Map<string, string>();
    for (const line of result.stdout.split("\n")) {
      const [jobId, comment] = line.trim().split("|");
      const id = comment?.startsWith("svc:") ? comment.slice(4) : undefined;
      if (id && wanted.has(id) && commentFor(id) === comment) found.set(id, formatHandle({ jobId, workDir: slurmWorkDir(this.profile, id) }));
    }
    return found;
  }

  close() {
    this.tunnels.closeAll();
    this.connection.close();
  }
}
