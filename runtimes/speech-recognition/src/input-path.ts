import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { invalidRequest, OpenAiError } from "@svc/runtime-common";

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/** A broken symlink still says where it leads: refuse it as an escape when that is outside. */
function isDanglingLinkOutside(root: string, path: string): boolean {
  try {
    if (!lstatSync(path).isSymbolicLink()) return false;
  } catch {
    return false;
  }
  return !inside(root, resolve(dirname(path), readlinkSync(path)));
}

export interface InputFolder {
  /** The folder as this process sees it (in a container: where it is mounted). */
  dir?: string;
  /** The same folder on the service's host, which is how callers name it. */
  hostDir?: string;
}

/**
 * Resolves a client-given `audio_path` inside the input folder: relative to it, or absolute on the
 * service host (inside the host folder) or as mounted here. Paths outside it, `..` escapes and
 * symlinks leading out are refused (400, naming the folder); a missing file is a 404.
 */
export function resolveInputPath(folder: InputFolder, given: string): string {
  let audioPath = given;
  const inputDir = folder.dir;
  if (!inputDir) throw invalidRequest("This service was started without --input-dir, so it reads no files by path; upload the audio to /v1/audio/transcriptions instead.", "audio_path");
  if (audioPath.includes("\0")) throw invalidRequest("audio_path must not contain NUL bytes.", "audio_path");
  const shown = folder.hostDir ?? inputDir;
  const outside = () => invalidRequest(`audio_path must name a file inside the input folder ${shown} (or a path relative to it).`, "audio_path");
  const hostRoot = folder.hostDir === undefined ? undefined : resolve(folder.hostDir);
  if (isAbsolute(audioPath) && hostRoot !== undefined && inside(hostRoot, resolve(audioPath))) audioPath = relative(hostRoot, resolve(audioPath)) || ".";
  const root = realpathSync(inputDir);
  const candidate = isAbsolute(audioPath) ? resolve(audioPath) : resolve(root, audioPath);
  const lexicalRoot = resolve(inputDir);
  if (!inside(root, candidate) && !inside(lexicalRoot, candidate)) throw outside();
  if (!existsSync(candidate) && isDanglingLinkOutside(root, candidate)) throw outside();
  if (!existsSync(candidate)) throw new OpenAiError(404, `No file ${given} in the input folder ${shown}.`, "invalid_request_error", "file_not_found", "audio_path");
  const real = realpathSync(candidate);
  if (!inside(root, real)) throw outside();
  if (!statSync(real).isFile()) throw invalidRequest(`audio_path ${given} is not a file.`, "audio_path");
  return real;
}
