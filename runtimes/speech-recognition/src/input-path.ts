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

/**
 * Resolves a client-given `audio_path` inside the input folder. Absolute paths outside it, `..`
 * escapes and symlinks leading out are refused (400); a missing file is a 404.
 */
export function resolveInputPath(inputDir: string | undefined, audioPath: string): string {
  if (!inputDir) throw invalidRequest("This service was started without --input-dir, so it reads no files by path; upload the audio to /v1/audio/transcriptions instead.", "audio_path");
  if (audioPath.includes("\0")) throw invalidRequest("audio_path must not contain NUL bytes.", "audio_path");
  const root = realpathSync(inputDir);
  const candidate = isAbsolute(audioPath) ? resolve(audioPath) : resolve(root, audioPath);
  const lexicalRoot = resolve(inputDir);
  if (!inside(root, candidate) && !inside(lexicalRoot, candidate)) {
    throw invalidRequest(`audio_path must name a file inside the input folder ${inputDir}.`, "audio_path");
  }
  if (!existsSync(candidate) && isDanglingLinkOutside(root, candidate)) {
    throw invalidRequest(`audio_path must name a file inside the input folder ${inputDir}.`, "audio_path");
  }
  if (!existsSync(candidate)) throw new OpenAiError(404, `No file ${audioPath} in the input folder.`, "invalid_request_error", "file_not_found", "audio_path");
  const real = realpathSync(candidate);
  if (!inside(root, real)) throw invalidRequest(`audio_path must name a file inside the input folder ${inputDir}.`, "audio_path");
  if (!statSync(real).isFile()) throw invalidRequest(`audio_path ${audioPath} is not a file.`, "audio_path");
  return real;
}
