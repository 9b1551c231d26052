import { homedir } from "node:os";
import { join } from "node:path";
import { ApiError, type HostKeyNotice, type SlurmProfile } from "@svc/contracts";
import { connectSsh, hostKeyAddedNotice, remotePathWord, SshError, type SshSession } from "@svc/ssh";
import { checkReadableDir, ensureWritableDir } from "./local-checks";

/** The commands a Slurm profile needs on the server's PATH. */
export const SLURM_COMMANDS = ["sbatch", "squeue"] as const;

export interface SlurmCheckResult {
  notices: string[];
  hostKey?: HostKeyNotice;
}

export interface SlurmCheckOptions {
  /** The local user's home (holds .ssh/); default $HOME. */
  userHome?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
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
    case "host-key-unknown":
      return new ApiError(422, "ssh_host_key_changed", error.message, { field: "host", ...error.details });
    default:
      return new ApiError(422, "ssh_failed", error.message, { field: "host" });
  }
}

/** `host = localhost`: svc runs on the cluster itself; the same checks run here, without SSH. */
function checkOnThisMachine(profile: SlurmProfile, userHome: string, env: Record<string, string | undefined>): SlurmCheckResult {
  const expand = (path: string) => (path === "~" ? userHome : path.startsWith("~/") ? join(userHome, path.slice(2)) : path);
  checkReadableDir(expand(profile.cache), "cache", "cache");
  const missing = SLURM_COMMANDS.filter((command) => !Bun.which(command, { PATH: env.PATH ?? "" }));
  if (missing.length > 0) {
    throw remoteFailed(undefined, `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not on this machine's PATH (${env.PATH ?? ""}): host = localhost means svc runs on a Slurm login node; install the Slurm client commands or use a remote host.`);
  }
  const created = ensureWritableDir(expand(profile.home), "home", "home");
  return { notices: created ? [created] : [] };
}

/** Cache and commands first, home last: a failing check then leaves nothing behind on the server. */
async function checkOverSsh(session: SshSession, profile: SlurmProfile): Promise<string[]> {
  const where = `${profile.user}@${profile.host}`;
  const home = remotePathWord(profile.home);
  const cache = remotePathWord(profile.cache);
  const notices: string[] = [];

  const cached = await session.exec(`if [ ! -e ${cache} ]; then echo missing; elif [ ! -d ${cache} ]; then echo notdir; elif [ -r ${cache} ] && [ -x ${cache} ]; then echo ok; else echo unreadable; fi`);
  const verdict = cached.stdout.trim();
  if (verdict === "missing") throw remoteFailed("cache", `cache ${profile.cache} does not exist on ${where}. svc never creates the cache folder: create it there, or give an existing folder.`);
  if (verdict === "notdir") throw remoteFailed("cache", `cache ${profile.cache} on ${where} is not a folder.`);
  if (verdict !== "ok") throw remoteFailed("cache", `cache ${profile.cache} on ${where} is not readable by ${profile.user}: fix its permissions or choose another folder.`);

  const found = await session.exec(`for c in ${SLURM_COMMANDS.join(" ")}; do command -v "$c" >/dev/null 2>&1 || echo "missing $c"; done; echo "PATH=$PATH"`);
  const missing = SLURM_COMMANDS.filter((command) => found.stdout.includes(`missing ${command}\n`));
  if (missing.length > 0) {
    const path = found.stdout.match(/^PATH=(.*)$/m)?.[1] ?? "";
    throw remoteFailed(undefined, `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not on the PATH of ${where} (PATH=${path}): is this a Slurm login node? Install the Slurm client commands there or add them to that user's PATH.`);
  }
  const made = await session.exec(`if [ -d ${home} ]; then echo existed; else mkdir -p -- ${home} && echo created; fi && test -w ${home}`);
  if (made.code !== 0) {
    const why = made.stderr.trim() || (made.stdout.includes("existed") || made.stdout.includes("created") ? "it is not writable" : "mkdir failed");
    throw remoteFailed("home", `Cannot create or write home ${profile.home} on ${where}: ${why}. Choose a folder that user can write to.`);
  }
  if (made.stdout.includes("created")) notices.push(`Created home ${profile.home} on ${profile.host}.`);

  return notices;
}

/**
 * Checks a Slurm profile (spec §2.2, §7): connects over SSH with key authentication (verifying the
 * host key, recording a new one), creates `home`, checks `cache` is readable and that sbatch and
 * squeue are on the PATH. Throws ApiError (422) saying what failed.
 */
export async function checkSlurmProfile(profile: SlurmProfile, options: SlurmCheckOptions = {}): Promise<SlurmCheckResult> {
  const env = options.env ?? process.env;
  const userHome = options.userHome ?? (env.HOME || homedir());
  if (profile.host === "localhost") return checkOnThisMachine(profile, userHome, env);
  let session: SshSession;
  try {
    session = await connectSsh(
      { host: profile.host, user: profile.user, port: profile.port, identityFile: profile.identity_file },
      { userHome, env, hostKeyPolicy: "accept-new", timeoutMs: options.timeoutMs },
    );
  } catch (error) {
    if (error instanceof SshError) throw sshFailure(error);
    throw error;
  }
  try {
    const notices = await checkOverSsh(session, profile);
    const hostKey: HostKeyNotice = { ...session.hostKey };
    if (hostKey.status === "added") notices.unshift(hostKeyAddedNotice(session.hostKey));
    return { notices, hostKey };
  } catch (error) {
    if (error instanceof SshError) throw sshFailure(error);
    throw error;
  } finally {
    session.close();
  }
}
