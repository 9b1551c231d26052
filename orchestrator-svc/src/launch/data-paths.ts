import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, posix } from "node:path";
import { badRequest } from "@svc/contracts";
import type { EngineCapabilities } from "../engines/engine";

/** The system's own folders: no job reads or writes its data there, on any machine. */
export const SYSTEM_FOLDERS = ["/etc", "/proc", "/sys", "/dev", "/boot", "/run"];

/** A place on this machine no job may see or hold in a folder it is given, and why. */
export interface ProtectedPlace {
  path: string;
  what: string;
}

/**
 * What must stay out of jobs' reach on this machine besides the system folders: svc's own files in
 * its home (databases, keys, the token, logs, profiles; not its download cache, nor the profiles'
 * home and cache folders, which hold models and inputs and may be inside it) and the Docker
 * socket's folder (access to it is control over Docker).
 */
export function protectedPlaces(svcHome: string, dockerSocket: string): ProtectedPlace[] {
  const own = (name: string, what: string) => ({ path: join(svcHome, name), what: `svc's own ${what} (${join(svcHome, name)})` });
  return [
    own("data", "databases and keys"),
    own("auth_token", "token"),
    own("logs", "logs"),
    own("profiles.cfg", "profiles file"),
    own("svc.lock", "lock file"),
    { path: dirname(dockerSocket), what: `the Docker socket's folder (${dirname(dockerSocket)}: access to the socket is control over Docker)` },
  ];
}

/** How a request uses a path: the option it came with, whether the job reads or writes it, and what it must be. */
export interface DataPathUse {
  option: string;
  field: string;
  access: "read" | "write";
  kind: "folder" | "file";
  /** It must be there already (an input); otherwise it is made when missing (an output, a speech input folder). */
  mustExist: boolean;
}

const within = (path: string, folder: string) => path === folder || path.startsWith(folder === "/" ? "/" : `${folder}/`);

/** `path` with every link resolved, the part that does not exist yet appended as written. */
function resolvedOnThisMachine(path: string): string {
  const missing: string[] = [];
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  return join(realpathSync(existing), ...missing);
}

/** The nearest folder of `path` (itself included) that exists. */
function nearestExisting(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  return existing;
}

function user(): string {
  return process.env.USER ?? `uid ${process.getuid?.() ?? "?"}`;
}

/**
 * One rule for every folder or file a job is given (batch folders and files, a speech service's
 * input folder, `--mount`). Everywhere: an absolute path (on a cluster `~/…` too), no `..`, not
 * `/` nor a system folder. On this machine (`capabilities.dataPaths`) links are resolved first, the
 * protected places are refused (in them, or a folder holding them), and svc's user must be able to
 * read it (outputs: write it, or make it). On a cluster it is judged as written: the job runs with
 * its user's rights, and Slurm's. Returns the path to use.
 */
export function checkDataPath(given: string, use: DataPathUse, capabilities: Pick<EngineCapabilities, "dataPaths">, protectedHere: readonly ProtectedPlace[]): string {
  const { option, field } = use;
  const refuse = (why: string) => badRequest(`${option} ${given}: ${why}`, { field });
  const onCluster = capabilities.dataPaths === "cluster";
  if (!isAbsolute(given) && !(onCluster && given.startsWith("~/"))) throw refuse(`give an absolute path${onCluster ? " (or ~/… in the cluster user's home)" : ""}.`);
  if (given.split("/").includes("..")) throw refuse("give the path without '..'.");
  const path = onCluster ? posix.normalize(given).replace(/(.)\/+$/, "$1") : resolvedOnThisMachine(given);
  const shown = path === given.replace(/(.)\/+$/, "$1") ? "it" : `it is ${path}, which`;
  const elsewhere = "give the folder of your data (in your home, on /scratch, on a project share, …).";
  if (path === "/") throw refuse(`${shown} is the whole filesystem, which no job may see: ${elsewhere}`);
  const system = SYSTEM_FOLDERS.find((folder) => within(path, folder));
  if (system) throw refuse(`${shown} is in ${system}, which holds the system's own files and no job may see: ${elsewhere}`);
  if (onCluster) return path;
  for (const place of protectedHere) {
    const real = resolvedOnThisMachine(place.path);
    if (within(path, real)) throw refuse(`${shown} is in ${place.what}, which no job may see: ${elsewhere}`);
    if (within(real, path)) throw refuse(`${shown} holds ${place.what}, which no job may see: give a folder inside it that holds only your data.`);
  }
  checkOnThisMachine(path, use, refuse);
  return path;
}

/** Existence, kind and svc's rights on this machine, checked before anything starts. */
function checkOnThisMachine(path: string, use: DataPathUse, refuse: (why: string) => Error) {
  const there = existsSync(path);
  if (!there && use.mustExist) throw refuse(`there is no such ${use.kind} on this machine.`);
  if (there && statSync(path).isDirectory() !== (use.kind === "folder")) throw refuse(use.kind === "folder" ? "that is a file: give a folder." : "that is a folder: give a file.");
  if (use.access === "read" && there) {
    if (!allows(path, constants.R_OK | (use.kind === "folder" ? constants.X_OK : 0))) throw refuse(`svc (running as ${user()}) cannot read it: give it the rights (chmod) or give another ${use.kind}.`);
    return;
  }
  // Written (or made when missing): a written file is replaced through its folder, so that folder counts.
  const folder = nearestExisting(use.kind === "file" ? dirname(path) : path);
  if (!allows(folder, constants.W_OK | constants.X_OK)) {
    throw refuse(`svc (running as ${user()}) cannot write ${folder === path ? "there" : `in ${folder}`}: give it the rights (chmod, chown) or give another ${use.kind}.`);
  }
}

function allows(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}
