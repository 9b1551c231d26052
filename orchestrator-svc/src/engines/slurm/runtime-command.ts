import type { SlurmRuntime } from "@svc/contracts";
import { remotePathWord, shellQuote } from "@svc/ssh";
import { serverOf } from "../api-key";
import type { Mount } from "../engine";
import { serverProgram } from "../gpu-servers";
import { modelMount } from "../model-folder";

/** How a job script says on its output why it could not start its server: the reason of its FAILED status leads with that line. */
export const CANNOT_START = "svc: cannot start: ";

/** What a slurm profile's jobs start their server with when the profile does not say (see SlurmProfile.runtime). */
export const DEFAULT_SLURM_RUNTIME: SlurmRuntime = "bare";

/** A GPU server (vLLM's or SGLang's OpenAI server) rather than one of the project's runtimes. */
export const isGpuServer = (image: string) => serverOf(image) !== "svc";

/**
 * How a job starts its server, as the engine prepared it on the cluster:
 * - `bare` with `bundle`: the svc runtime bundle installed under <home>/runtime/<version>, its own
 *   Bun started by absolute path; without `bundle`: the GPU server's Python entry point (vLLM, SGLang);
 * - `apptainer`: `apptainer run` of the SIF image at `sif`, made ready by the `prepare` commands
 *   (run on the login node before submitting, when the image is missing).
 */
export type RuntimeTarget = (
  | { runtime: "bare"; bundle?: { version: string; dir: string; bun: string; main: string } }
  | { runtime: "apptainer"; sif: string; prepare: string[] }
) & {
  /** A batch job's driver, from the svc runtime bundle (Bun and its main file), which starts the server itself. */
  driver?: { bun: string; main: string };
};

/** The parts of a job script that start the server: comments, checks before it starts, and the command words (quoted). */
export interface RuntimeCommand {
  comments: string[];
  checks: string[];
  words: string[];
}

/** A check that `path` exists on the node the job landed on: if not, the job fails saying so (that line leads its FAILED reason). */
function presenceCheck(test: string, path: string, what: string, fix: string): string[] {
  const word = remotePathWord(path);
  return [
    `if [ ! ${test} ${word} ]; then`,
    `  printf '${CANNOT_START}%s is not on node %s: %s is missing there. %s\\n' ${shellQuote(what)} "\${SLURMD_NODENAME:-$(hostname)}" ${word} ${shellQuote(fix)} >&2`,
    "  exit 3",
    "fi",
  ];
}

/** Each `--mount` folder must be on the node the job landed on (a bare job sees the node's filesystem as it is). */
const mountChecks = (mounts: readonly Mount[]) =>
  mounts.flatMap((mount) => presenceCheck("-d", mount.source, `the --mount folder ${mount.source}`, "Mount a folder the compute nodes share."));

/**
 * `inputDir`: a speech service's input folder, bound into an Apptainer container at the same path;
 * `mounts`: `--mount` folders, bound read-only (Apptainer) or checked to be on the node (bare).
 */
export function runtimeCommand(modelDir: string, gpus: number, target: RuntimeTarget, inputDir?: string, mounts: readonly Mount[] = [], server: { image: string; withKey: boolean } = { image: "", withKey: false }): RuntimeCommand {
  const engine = serverOf(server.image);
  // SGLang's image has no server entry point: its Python is run in the container (vLLM's image starts its server itself).
  const program = engine === "svc" ? [] : serverProgram(engine, server.withKey).map(shellQuote);
  if (target.runtime === "apptainer") {
    const mount = modelMount(modelDir);
    const input = inputDir === undefined ? [] : ["--bind", `${remotePathWord(inputDir)}:${remotePathWord(inputDir)}`];
    const binds = mounts.flatMap((each) => ["--bind", shellQuote(`${each.source}:${each.target}:ro`)]);
    return {
      comments: target.prepare.length === 0 ? [] : ["# svc made the image ready on the login node before submitting, if it was missing:", ...target.prepare.map((line) => `#   ${line}`)],
      checks: [...presenceCheck("-f", target.sif, "the Apptainer image", "The folder it is in must be shared with the compute nodes."), ...mountChecks(mounts)],
      words: ["apptainer", engine === "sglang" ? "exec" : "run", ...(gpus > 0 ? ["--nv"] : []), "--bind", shellQuote(`${mount}:${mount}:ro`), ...input, ...binds, remotePathWord(target.sif), ...(engine === "sglang" ? program : [])],
    };
  }
  const readOnly = mounts.length === 0 ? [] : ["# --mount folders: a bare job reads them where they are on the node (nothing can bind them read-only there)."];
  if (!target.bundle) return { comments: readOnly, checks: ['export PATH="$HOME/.local/bin:$PATH"', ...mountChecks(mounts)], words: program.length > 0 ? program : serverProgram("vllm", false) };
  const { version, dir, bun, main } = target.bundle;
  return {
    comments: [`# The svc runtime ${version} (Bun and the runtime tree), installed by svc in ${dir}.`, ...readOnly],
    checks: [...presenceCheck("-x", bun, `the svc runtime ${version}`, "Its home folder must be shared with the compute nodes; 'svc runtime install' puts it there again."), ...mountChecks(mounts)],
    words: [remotePathWord(bun), remotePathWord(main)],
  };
}
