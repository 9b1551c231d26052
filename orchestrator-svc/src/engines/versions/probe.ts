import { ENGINE_VERSION_PATTERN, type GpuEngine } from "@svc/contracts";
import { remotePathWord, shellQuote } from "@svc/ssh";

/** A version read where an engine runs (null: none there), and how. */
export interface FoundVersion {
  version: string | null;
  how: string;
}

/** The Python line that prints an engine's version where it is installed (fixed text: nothing of the user's goes into it). */
export const VERSION_LINE: Record<GpuEngine, string> = {
  vllm: "import vllm; print(vllm.__version__)",
  sglang: "import sglang; print(sglang.__version__)",
};

/**
 * The shell command that prints `engine`'s version: in a bare job's Python (the PATH a job gets,
 * `~/.local/bin` first), or inside the Apptainer image at `sif` (its package metadata, as the job
 * would import it).
 */
export function probeCommand(engine: GpuEngine, sif?: string): string {
  const python = `python3 -c ${shellQuote(VERSION_LINE[engine])}`;
  if (sif !== undefined) return `apptainer exec ${remotePathWord(sif)} ${python}`;
  return `PATH="$HOME/.local/bin:$PATH" ${python}`;
}

const VERSION = new RegExp(ENGINE_VERSION_PATTERN);

/** The version a probe printed (its last line), or null when it printed none. */
export function readProbe(stdout: string): string | null {
  const last = stdout.trim().split("\n").at(-1)?.trim() ?? "";
  return VERSION.test(last) ? last : null;
}

/** Labels an image may carry its engine's version in (not the OCI version label: on CUDA-based images it is the base OS's). */
export const VERSION_LABELS = ["svc.engine-version"];

/** The version an image says it has: a version label, else a tag that is a version (`vllm/vllm-openai:v0.11.1`). */
export function versionOfImage(image: string, labels: Record<string, string> | undefined): FoundVersion {
  for (const label of VERSION_LABELS) {
    const value = labels?.[label]?.trim();
    if (value && VERSION.test(value)) return { version: value, how: `the image's label ${label}` };
  }
  const tag = /:([^/:@]+)$/.exec(image.replace(/@sha256:[0-9a-f]+$/, ""))?.[1];
  if (tag && VERSION.test(tag)) return { version: tag, how: `the image's tag ${tag}` };
  return { version: null, how: `${image} has no version label or version tag` };
}
