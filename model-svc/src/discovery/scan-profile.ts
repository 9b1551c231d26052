import { join } from "node:path";
import type { Profile } from "@svc/contracts";
import { connectSsh, SshError, type ConnectOptions } from "@svc/ssh";
import { scanLocal } from "./scan-local";
import { buildScanScript, parseScanOutput, RemoteScanError } from "./scan-remote";
import { runRemoteScript } from "./remote-exec";
import type { ScannedRoot } from "./types";

export interface ProfileScan {
  roots: ScannedRoot[];
  /** The model folders scanned, home first. */
  dirs: string[];
  /** Remote commands run (0 for a local profile, 1 for a slurm one). */
  sshRoundTrips: number;
}

export class ScanFailed extends Error {
  override name = "ScanFailed";
}

/** `<home>/models` and `<cache>/models` of a profile, home first. */
export function modelDirs(profile: Profile): string[] {
  if (profile.schema === "local") return [join(profile.home_dir, "models"), join(profile.cache_dir, "models")];
  const sub = (dir: string) => `${dir.replace(/\/+$/, "")}/models`;
  return [sub(profile.home), sub(profile.cache)];
}

/**
 * Scans a profile's model folders: on this machine for a local profile; for a slurm profile over
 * SSH with one remote command that reports every snapshot at once (see scan-remote.ts).
 */
export async function scanProfile(profile: Profile, ssh: ConnectOptions = {}): Promise<ProfileScan> {
  const dirs = modelDirs(profile);
  if (profile.schema === "local") return { roots: scanLocal(dirs), dirs, sshRoundTrips: 0 };
  let session;
  try {
    session = await connectSsh({ host: profile.host, user: profile.user, port: profile.port, identityFile: profile.identity_file }, ssh);
  } catch (error) {
    throw new ScanFailed(error instanceof SshError ? error.message : `Cannot connect to ${profile.host}: ${(error as Error).message}`);
  }
  try {
    const result = await runRemoteScript(session, buildScanScript(dirs));
    if (result.code !== 0) throw new ScanFailed(`The model scan on ${profile.host} failed (exit ${result.code}): ${result.stderr.trim().slice(0, 500)}`);
    const roots = parseScanOutput(result.stdout);
    return { roots, dirs: roots.map((r) => r.root), sshRoundTrips: 1 };
  } catch (error) {
    if (error instanceof ScanFailed) throw error;
    if (error instanceof RemoteScanError) throw new ScanFailed(`The model scan on ${profile.host} failed: ${error.message}`);
    throw new ScanFailed((error as Error).message);
  } finally {
    session.close();
  }
}
