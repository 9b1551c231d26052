import { profileFolders, type Profile } from "@svc/contracts";
import { clusterConnection, type ConnectOptions } from "@svc/ssh";
import { scanLocal } from "./scan-local";
import { buildScanScript, parseScanOutput, RemoteScanError } from "./scan-remote";
import type { KnownFacts, ScannedRoot } from "./types";

export interface ProfileScan {
  roots: ScannedRoot[];
  /** The model folders scanned, home first. */
  dirs: string[];
  /** Commands run over SSH (0 for a local profile or a slurm one on this machine, else 1). */
  sshRoundTrips: number;
}

export class ScanFailed extends Error {
  override name = "ScanFailed";
}

/** `<home>/models` and `<cache>/models` of a profile, home first. */
export function modelDirs(profile: Profile): string[] {
  const { home, cache } = profileFolders(profile);
  return [home, cache].map((dir) => `${dir.replace(/\/+$/, "")}/models`);
}

/** Everything one scan may print: the tree listing and a few small files of every snapshot. */
const SCAN_OUTPUT_LIMIT = 512 * 1024 * 1024;
const SCAN_TIMEOUT_MS = 300_000;

/**
 * Scans a profile's model folders: on this machine for a local profile; for a slurm profile through
 * its cluster connection (SSH, or this machine for `host = localhost`) with one command that reports
 * every snapshot at once (see scan-remote.ts). The weight headers of snapshots whose facts the
 * registry holds (`known`, by folder) are not read again while their files stay the same.
 */
export async function scanProfile(profile: Profile, ssh: ConnectOptions = {}, known: KnownFacts = new Map()): Promise<ProfileScan> {
  const dirs = modelDirs(profile);
  if (profile.schema === "local") return { roots: scanLocal(dirs, known), dirs, sshRoundTrips: 0 };
  const connection = clusterConnection(profile, ssh);
  try {
    const result = await connection.run(buildScanScript(dirs, known), { timeoutMs: SCAN_TIMEOUT_MS, maxBytes: SCAN_OUTPUT_LIMIT });
    if (result.code !== 0) throw new ScanFailed(`The model scan on ${profile.host} failed (exit ${result.code}): ${result.stderr.trim().slice(0, 500)}`);
    const roots = parseScanOutput(result.bytes, known);
    return { roots, dirs: roots.map((r) => r.root), sshRoundTrips: connection.local ? 0 : connection.roundTrips };
  } catch (error) {
    if (error instanceof ScanFailed) throw error;
    if (error instanceof RemoteScanError) throw new ScanFailed(`The model scan on ${profile.host} failed: ${error.message}`);
    throw new ScanFailed((error as Error).message);
  } finally {
    connection.close();
  }
}
