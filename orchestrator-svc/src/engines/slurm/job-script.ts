import { remotePathWord, shellQuote } from "@svc/ssh";
import { SLURM_VALUE_RULES } from "@svc/contracts";
import { API_KEY_VARIABLE, serverOf } from "../api-key";
import { instanceKey, type LaunchSpec } from "../engine";
import { EngineError } from "../engine-error";
import { GPU_SERVERS, serverEnvironment } from "../gpu-servers";
import { multiNodeLines } from "./multi-node";
import { runtimeCommand, type RuntimeTarget } from "./runtime-command";

const { ACCOUNT, CONSTRAINT, NAME, NODELIST, PARTITION, TIME } = SLURM_VALUE_RULES;

/** The job's own files, in its work folder <home>/jobs/<service id>/ (a renewal's successor: <home>/jobs/<service id>.<generation>/). */
export const JOB_FILES = { script: "job.sh", output: "output.log", port: "port", apiKey: "api_key", progress: "progress.json" } as const;
/** Marks the job as this service's, so a submit interrupted before its id was recorded is adopted. */
export const commentFor = (serviceId: string) => `svc:${serviceId}`;

/** A value that cannot go into a job script: the request as given cannot run on Slurm. */
export class JobScriptError extends EngineError {
  constructor(message: string) {
    super("invalid", "invalid_request", message);
    this.name = "JobScriptError";
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CONTROL = /[\x00-\x1f\x7f]/;

/**
 * An `#SBATCH` line is read by sbatch, not by a shell, so quoting does not apply there: every value
 * is held again (whatever validated it before) to the characters Slurm accepts for that option.
 */
function directive(option: string, value: string | number | undefined, rule: RegExp, what: string): string[] {
  if (value === undefined) return [];
  const text = String(value);
  if (!rule.test(text)) throw new JobScriptError(`${what} ${JSON.stringify(text)} cannot go into a Slurm job script.`);
  return [`#SBATCH --${option}=${text}`];
}

const POSITIVE = /^[1-9][0-9]{0,6}$/;

/**
 * Picks a free TCP port on the node (reading /proc/net/tcp{,6}, no extra tools) and the node's
 * address (its Slurm node name resolved, IPv4), writes "<address> <port>" to the port file and
 * starts the server there. `exec` leaves the server as the job's process, so scancel ends it.
 */
const PORT_PICKER = [
  'node="${SLURMD_NODENAME:-$(hostname)}"',
  'addr=$(getent ahostsv4 "$node" 2>/dev/null | awk \'NR == 1 { print $1 }\')',
  '[ -n "$addr" ] || addr=$(hostname -I 2>/dev/null | awk \'{ print $1 }\')',
  '[ -n "$addr" ] || addr=127.0.0.1',
  "port_busy() {",
  "  hex=$(printf '%04X' \"$1\")",
  "  awk -v p=\":$hex\" 'NR > 1 && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' /proc/net/tcp /proc/net/tcp6 2>/dev/null",
  "}",
  "port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))",
  'while port_busy "$port"; do port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 )); done',
  `printf '%s %s\\n' "$addr" "$port" > ${JOB_FILES.port}.tmp && mv ${JOB_FILES.port}.tmp ${JOB_FILES.port}`,
  'echo "svc: job $SLURM_JOB_ID on $node serves on $addr:$port"',
];

/**
 * The one sbatch script for a service: `--dry-run` prints it and submit writes exactly it to
 * <work dir>/job.sh. Directives carry the job options; the body runs in the work folder (sbatch is
 * called there) and every value in it is a single shell-quoted word, so names, paths and engine
 * arguments with quotes, `$(...)`, `;` or backticks stay inert text.
 */
export function renderJobScript(spec: LaunchSpec, target: RuntimeTarget): string {
  if (!UUID.test(spec.serviceId)) throw new JobScriptError(`service id ${JSON.stringify(spec.serviceId)} is not a UUID.`);
  const generation = spec.generation ?? 0;
  if (!Number.isSafeInteger(generation) || generation < 0) throw new JobScriptError(`generation ${generation} is not a whole number.`);
  const mounts = spec.mounts ?? [];
  const words = [spec.modelDir, spec.inputDir ?? "", ...spec.args, ...mounts.flatMap((mount) => [mount.source, mount.target]), ...(spec.batch ? [...spec.batch.args, ...spec.batch.writes, ...spec.batch.reads] : [])];
  if (words.some((word) => CONTROL.test(word))) throw new JobScriptError("a value with control characters (such as a newline) cannot go into a Slurm job script.");
  const job = spec.job;
  const gpus = job.gres ?? 0;
  if (!Number.isInteger(gpus) || gpus < 0 || gpus > 64) throw new JobScriptError(`--gres ${gpus}: give a whole number of GPUs.`);
  const server = serverOf(spec.image);
  const nodes = spec.placement?.nodes ?? job.nodes ?? 1;
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 1024) throw new JobScriptError(`--nodes ${nodes}: give a whole number of nodes.`);
  if (nodes > 1 && (server === "svc" || spec.batch)) throw new JobScriptError(`--nodes ${nodes}: only a GPU service (vLLM or SGLang, with --gres) spans nodes; give --nodes 1 or drop it.`);
  // A typed GRES (gpu:a100:4) where the placement names the partition's GPU type.
  const gpuType = spec.placement?.gpuType && /^[A-Za-z0-9_.-]{1,64}$/.test(spec.placement.gpuType) ? `${spec.placement.gpuType}:` : "";
  const lines = [
    "#!/bin/bash",
    ...directive("job-name", spec.name, NAME, "--name"),
    `#SBATCH --comment=${commentFor(instanceKey(spec.serviceId, generation))}`,
    `#SBATCH --output=${JOB_FILES.output}`,
    "#SBATCH --open-mode=append",
    ...directive("time", job.time, TIME, "--time"),
    ...directive("ntasks-per-node", job.ntasksPerNode, POSITIVE, "--ntasks-per-node"),
    ...directive("mem", job.mem === undefined ? undefined : `${job.mem}G`, /^[1-9][0-9]{0,6}G$/, "--mem"),
    ...(nodes > 1 || job.nodes !== undefined ? [`#SBATCH --nodes=${nodes}`] : []),
    ...(gpus > 0 ? [`#SBATCH --gres=gpu:${gpuType}${gpus}`] : []),
    ...directive("partition", job.partition, PARTITION, "--partition"),
    ...directive("constraint", job.constraint, CONSTRAINT, "--constraint"),
    ...directive("account", job.account, ACCOUNT, "--account"),
    ...directive("qos", job.qos, ACCOUNT, "--qos"),
    ...directive("reservation", job.reservation, ACCOUNT, "--reservation"),
    ...directive("exclude", job.exclude, NODELIST, "--exclude"),
    ...directive("nodelist", job.nodelist, NODELIST, "--nodelist"),
    `# svc service ${spec.serviceId}: ${spec.task} with the ${target.runtime} runtime`,
  ];
  if (spec.gracePeriod !== undefined && !(Number.isInteger(spec.gracePeriod) && spec.gracePeriod >= 0)) throw new JobScriptError(`--grace-period ${spec.gracePeriod}: give whole seconds.`);
  if (spec.gracePeriod !== undefined) lines.push(`# svc counts it UNHEALTHY when its health check has not answered ${spec.gracePeriod} s after it started (--grace-period ${spec.gracePeriod}).`);
  const runtime = runtimeCommand(spec.modelDir, gpus, target, spec.inputDir, mounts, { image: spec.image, withKey: spec.batch !== undefined || spec.apiKey !== undefined });
  if (runtime.comments.some((line) => CONTROL.test(line))) throw new JobScriptError("an image name or path with control characters cannot go into a Slurm job script.");
  lines.push(...runtime.comments, "set -u", "umask 077", ...runtime.checks);
  if (spec.batch) return `${[...lines, ...batchLines(spec, target, runtime.words)].join("\n")}\n`;
  // The key reaches the server in its environment (not in `ps`), from the 0600 file submit wrote.
  if (spec.apiKey !== undefined) {
    const variable = API_KEY_VARIABLE[serverOf(spec.image)];
    lines.push(`${variable}=$(cat ${JOB_FILES.apiKey}) || { echo "svc: cannot read ${JOB_FILES.apiKey}" >&2; exit 1; }`, `export ${variable}`);
  }
  for (const [name, value] of Object.entries(serverEnvironment(server, spec.args))) lines.push(`export ${name}=${shellQuote(value)}`);
  // The speech runtime's input folder (default <home>/inputs, maybe ~/…): there on the node before the server looks.
  const inputDir = spec.inputDir === undefined ? undefined : remotePathWord(spec.inputDir);
  if (inputDir) lines.push(`mkdir -p ${inputDir}`);
  lines.push(...PORT_PICKER);
  const modelOption = server === "svc" ? "--model" : GPU_SERVERS[server].modelOption;
  const command = [...runtime.words, modelOption, shellQuote(spec.modelDir), "--host", '"$addr"', "--port", '"$port"'];
  if (inputDir) command.push("--input-dir", inputDir, "--input-host-dir", inputDir);
  command.push(...spec.args.map(shellQuote));
  if (nodes > 1 && server !== "svc") lines.push(...multiNodeLines(server, nodes, command));
  else lines.push(`exec ${command.join(" ")}`);
  return `${lines.join("\n")}\n`;
}

/** Where the batch driver is in the svc runtime bundle, beside the runtimes it starts. */
export const driverOf = (bundle: { bun: string; main: string }, task: string) => ({
  bun: bundle.bun,
  main: bundle.main.replace(new RegExp(`runtimes/${task}/src/main\\.ts$`), "runtimes/batch-driver/src/main.ts"),
});

/**
 * A batch job's body: its written folders made, then svc's batch driver (from the runtime bundle)
 * started in place of the server; the driver starts the server (the bare runtime, vLLM, or the
 * Apptainer image: the same command a service runs) on the node's loopback with a key of its own,
 * handed over in the variable that server reads, and writes its progress into the work folder,
 * where the status pass reads it.
 */
function batchLines(spec: LaunchSpec, target: RuntimeTarget, server: string[]): string[] {
  const batch = spec.batch!;
  // Without a bundle (only when the script's values are checked before the runtime is known) the words are placeholders.
  const bundle = target.runtime === "bare" ? target.bundle : undefined;
  const driver = target.driver ?? driverOf(bundle ?? { bun: "bun", main: `runtimes/${spec.task}/src/main.ts` }, spec.task);
  const folders = [...batch.writes, batch.stateDir].map(remotePathWord);
  return [
    `mkdir -p ${folders.join(" ")}`,
    `echo "svc: batch job $SLURM_JOB_ID on \${SLURMD_NODENAME:-$(hostname)}"`,
    [
      "exec",
      remotePathWord(driver.bun),
      remotePathWord(driver.main),
      ...batch.args.map(batchWord),
      "--progress-file",
      JOB_FILES.progress,
      "--api-key-variable",
      API_KEY_VARIABLE[serverOf(spec.image)],
      "--",
      ...server,
      serverOf(spec.image) === "svc" ? "--model" : GPU_SERVERS[serverOf(spec.image) as "vllm" | "sglang"].modelOption,
      shellQuote(spec.modelDir),
      ...spec.args.map(shellQuote),
    ].join(" "),
  ];
}

/** A driver argument: a path starting with ~/ keeps its ~ for the shell, everything else is one quoted word. */
const batchWord = (word: string) => (word.startsWith("~/") ? remotePathWord(word) : shellQuote(word));
