import { homedir } from "node:os";
import { join } from "node:path";
import { ApiError, type HostKeyNotice, type SlurmProfile } from "@svc/contracts";
import { clusterConnection, hostKeyAddedNotice, remotePathWord, SshError, type ClusterConnection } from "@svc/ssh";
import type { GpuReading } from "../gpus/reading";
import { GpuReadError, readSlurmGpus } from "../gpus/slurm-gpus";

/** The commands a Slurm profile needs on the server's PATH. */
export const SLURM_COMMANDS = ["sbatch", "squeue"] as const;

export interface SlurmCheckResult {
  notices: string[];
  hostKey?: HostKeyNotice;
  /** The cluster's partitions and GPUs, read with the check (absent when they could not be read). */
  gpus?: GpuReading;
}

export interface SlurmCheckOptions {
  /** The local user's home (holds .ssh/); default $HOME. */
  userHome?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** The host key fingerprint the user confirmed, for a host not in known_hosts yet. */
  hostKeyFingerprint?: string;
}

const remoteFailed = (field: string | undefined, message: string) => new ApiError(422, "remote_check_failed", message, field ? { field } : undefined);

function sshFailure(error: SshError): ApiError {
  switch (error.kind) {
    case "unreachable":
      return new ApiError(422, "ssh_unreachable", `${error.message} Check host (and port), and that you are on the network or VPN the cluster needs.`, { field: "host" });
    case "no-keys":
    case "auth":
      return new ApiError(422, "ssh_auth_failed", error.message, { field: "user" });
    case "host-key-changed":
    case "host-key-revoked":
      return new ApiError(422, "ssh_host_key_changed", error.message, { field: "host", ...error.details });
    case "host-key-unknown":
      return new ApiError(422, "ssh_host_key_unknown", error.message, { field: "host", ...error.details });
    default:
      return new ApiError(422, "ssh_failed", error.message, { field: "host" });
  }
}

/**
 * Cache and commands first, home last: a failing check then leaves nothing behind on the server.
 * The same script runs over SSH or, for `host = localhost`, on this machine; only the wording of
 * where differs. Utilities the script needs besides the Slurm commands are looked up on the usual
 * system folders too, so the PATH check is about sbatch and squeue alone.
 */
async function runChecks(connection: ClusterConnection, profile: SlurmProfile, userHome: string): Promise<string[]> {
  const where = connection.local ? "this machine" : `${profile.user}@${profile.host}`;
  const home = remotePathWord(profile.home);
  const cache = remotePathWord(profile.cache);
  const notices: string[] = [];

  const cached = await connection.run(`if [ ! -e ${cache} ]; then echo missing; elif [ ! -d ${cache} ]; then echo notdir; elif [ -r ${cache} ] && [ -x ${cache} ]; then echo ok; else echo unreadable; fi`);
  const verdict = cached.stdout.trim();
  if (verdict === "missing") throw remoteFailed("cache", `cache ${profile.cache} does not exist on ${where}. svc never creates the cache folder: create it there, or give an existing folder.`);
  if (verdict === "notdir") throw remoteFailed("cache", `cache ${profile.cache} on ${where} is not a folder.`);
  if (verdict !== "ok") throw remoteFailed("cache", `cache ${profile.cache} on ${where} is not readable by ${profile.user}: fix its permissions or choose another folder.`);

  const found = await connection.run(`for c in ${SLURM_COMMANDS.join(" ")}; do command -v "$c" >/dev/null 2>&1 || echo "missing $c"; done; echo "PATH=$PATH"`);
  const missing = SLURM_COMMANDS.filter((command) => found.stdout.includes(`missing ${command}\n`));
  if (missing.length > 0) {
    const path = found.stdout.match(/^PATH=(.*)$/m)?.[1] ?? "";
    const are = `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"}`;
    throw remoteFailed(
      undefined,
      connection.local
        ? `${are} not on this machine's PATH (${path}): host = localhost means svc runs on a Slurm login node; install the Slurm client commands or use a remote host.`
        : `${are} not on the PATH of ${where} (PATH=${path}): is this a Slurm login node? Install the Slurm client commands there or add them to that user's PATH.`,
    );
  }
  // umask 077: what svc creates on a cluster is its user's alone.
  const made = await connection.run(`PATH="$PATH:/usr/bin:/bin"; umask 077; if [ -d ${home} ]; then echo existed; else mkdir -p -- ${home} && echo created; fi && test -w ${home}`);
  if (made.code !== 0) {
    const why = made.stderr.trim() || (made.stdout.includes("existed") || made.stdout.includes("created") ? "it is not writable" : "mkdir failed");
    throw remoteFailed("home", `Cannot create or write home ${profile.home} on ${where}: ${why}. Choose a folder that user can write to.`);
  }
  if (made.stdout.includes("created")) {
    const expanded = profile.home === "~" ? userHome : profile.home.startsWith("~/") ? join(userHome, profile.home.slice(2)) : profile.home;
    notices.push(connection.local ? `Created home ${expanded}.` : `Created home ${profile.home} on ${profile.host}.`);
  }
  return notices;
}

/**
 * Runs `work` on the profile's cluster connection (strict host keys; a new host only with the
 * fingerprint the user confirmed), closing it after; SSH failures become 422 ApiErrors saying what to fix.
 */
export async function onCluster<T>(profile: SlurmProfile, options: SlurmCheckOptions, work: (connection: ClusterConnection, userHome: string) => Promise<T>): Promise<T> {
  const env = options.env ?? process.env;
  const userHome = options.userHome ?? (env.HOME || homedir());
  const connection = clusterConnection(profile, {
    userHome,
    env: { ...env, HOME: userHome },
    hostKeyPolicy: "strict",
    confirmedFingerprint: options.hostKeyFingerprint,
    timeoutMs: options.timeoutMs,
    keepaliveMs: 0,
  });
  try {
    return await work(connection, userHome);
  } catch (error) {
    if (error instanceof SshError) throw sshFailure(error);
    throw error;
  } finally {
    connection.close();
  }
}

/**
 * Checks a Slurm profile (spec §2.2, §7) through its cluster connection: over SSH with key
 * authentication (verifying the host key; a host not in known_hosts yet is refused with its
 * fingerprint, 422 ssh_host_key_unknown, until the user confirms that fingerprint, which is then
 * recorded), or on this machine for
 * `host = localhost`; `cache` must be readable, sbatch and squeue on the PATH, and `home` is
 * created. Throws ApiError (422) saying what failed. Then reads the cluster's GPUs on the same
 * connection (one more command); a cluster whose partitions cannot be read still passes, with a notice.
 */
export function checkSlurmProfile(profile: SlurmProfile, options: SlurmCheckOptions = {}): Promise<SlurmCheckResult> {
  return onCluster(profile, options, async (connection, userHome) => {
    const notices = await runChecks(connection, profile, userHome);
    const gpus = await readSlurmGpus(connection).catch((error: unknown) => {
      if (!(error instanceof GpuReadError)) throw error;
      notices.push(`Could not read the cluster's partitions and GPUs (${error.message}); \`svc profile show\` tries again.`);
      return undefined;
    });
    const read = gpus ? { gpus } : {};
    if (!connection.hostKey) return { notices, ...read };
    const hostKey: HostKeyNotice = { ...connection.hostKey };
    if (hostKey.status === "added") notices.unshift(hostKeyAddedNotice(connection.hostKey));
    return { notices, hostKey, ...read };
  });
}
