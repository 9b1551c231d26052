import { badRequest, IMAGE_REFERENCE, isMountPath, SLURM_VALUE_RULES, type RunRequest } from "@svc/contracts";

const { TIME, NAME, PARTITION, CONSTRAINT, ACCOUNT, NODELIST } = SLURM_VALUE_RULES;

const PRINTABLE = /^[^\x00-\x1f\x7f]*$/;

/** Options svc gives every server itself (where it listens, what it serves, its key): engine arguments cannot change them. */
const SET_BY_SVC = ["--model", "--host", "--port", "--api-key", "--api-key-file", "--input-dir", "--input-host-dir"];

/** The option svc sets that `arg` would set, also when abbreviated as Python's argparse (vLLM) allows. */
function setBySvc(arg: string): string | undefined {
  const name = arg.split("=")[0];
  if (!name.startsWith("--") || name.length < 4) return undefined;
  return SET_BY_SVC.find((option) => option.startsWith(name));
}

/**
 * Checks what the schema cannot: each rule says what to fix. Values that later reach a job script
 * are held to the characters Slurm itself accepts, so nothing in them can act as shell syntax.
 */
export function validateRunRequest(request: RunRequest): void {
  const job = request.job ?? {};
  if (request.name !== undefined && !NAME.test(request.name)) {
    throw badRequest(`--name ${JSON.stringify(request.name)}: use 1–63 letters, digits, '.', '_' or '-', starting with a letter or digit.`);
  }
  if (job.time !== undefined && !TIME.test(job.time)) {
    throw badRequest(`--time ${JSON.stringify(job.time)}: use minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (e.g. 01:30:00).`);
  }
  if (job.partition !== undefined && !PARTITION.test(job.partition)) {
    throw badRequest(`--partition ${JSON.stringify(job.partition)}: a partition name has letters, digits, '_', '.' and '-' only.`);
  }
  if (job.constraint !== undefined && !CONSTRAINT.test(job.constraint)) {
    throw badRequest(`--constraint ${JSON.stringify(job.constraint)}: use node feature names joined by &, |, or commas (letters, digits, '_', '.', '-', '*', brackets).`);
  }
  for (const [option, value] of [["--account", job.account], ["--qos", job.qos], ["--reservation", job.reservation]] as const) {
    if (value !== undefined && !ACCOUNT.test(value)) {
      throw badRequest(`${option} ${JSON.stringify(value)}: a Slurm ${option.slice(2)} name has letters, digits, '_', '.' and '-' only, starting with a letter or digit.`);
    }
  }
  for (const [option, value] of [["--exclude", job.exclude], ["--nodelist", job.nodelist]] as const) {
    if (value !== undefined && !NODELIST.test(value)) {
      throw badRequest(`${option} ${JSON.stringify(value)}: give node names or a Slurm hostlist such as node[01-04],gpu7 (letters, digits, '_', '.', '-', ',', brackets).`);
    }
  }
  for (const mount of request.mounts ?? []) {
    if (!isMountPath(mount)) {
      throw badRequest(`--mount ${JSON.stringify(mount)}: give an absolute folder path on one line, without ':', ',' or '..'.`, { field: "mounts" });
    }
  }
  if (request.image !== undefined && !IMAGE_REFERENCE.test(request.image)) {
    throw badRequest(`--image ${JSON.stringify(request.image)}: give an image reference such as registry.example:5000/team/llama:1.2 (letters, digits, '.', '_', '-', '/', ':', '@', '+').`, { field: "image" });
  }
  if (request.apiKey !== undefined && (!PRINTABLE.test(request.apiKey) || /\s/.test(request.apiKey))) {
    throw badRequest("--api-key: use a key without spaces or control characters.");
  }
  for (const arg of request.engineArgs ?? []) {
    if (!PRINTABLE.test(arg)) throw badRequest(`engine argument ${JSON.stringify(arg)}: control characters (such as newlines) are not allowed.`);
    const option = setBySvc(arg);
    if (option) {
      throw badRequest(
        `engine argument ${JSON.stringify(arg)}: svc sets ${option} itself (the server listens on loopback, on the port and with the model and key svc gives it). Use svc run's own options instead.`,
      );
    }
  }
  if (request.task === "speech-recognition") {
    if (request.textGeneration) throw badRequest("text-generation options (--max-total-tokens, --sharded, …) do not apply to speech-recognition.");
    if (request.engine !== undefined) throw badRequest(`--engine applies to text-generation only: speech-recognition runs on svc's own runtime.`, { field: "engine" });
    if (request.engineArgs?.length) throw badRequest(`unknown options for speech-recognition: ${request.engineArgs.join(" ")}. Run 'svc run speech-recognition --help'.`);
  } else {
    if (request.speechRecognition) throw badRequest("--input-dir applies to speech-recognition only.");
    const options = request.textGeneration ?? {};
    if (options.sharded !== undefined && !["true", "false"].includes(options.sharded.toLowerCase())) {
      throw badRequest(`--sharded ${JSON.stringify(options.sharded)}: use true or false.`);
    }
    if (options.sharded?.toLowerCase() === "true" && (job.gres ?? 0) < 2) {
      throw badRequest(`--sharded true needs 2 or more GPUs, and --gres asks for ${job.gres ?? 0}: add --gres 2 (or more), or drop --sharded.`);
    }
    if (options.maxInputLength !== undefined && options.maxTotalTokens !== undefined && options.maxInputLength >= options.maxTotalTokens) {
      throw badRequest(`--max-input-length (${options.maxInputLength}) must be smaller than --max-total-tokens (${options.maxTotalTokens}), which also counts the output.`);
    }
  }
}
