import { CPU_TEXT_GENERATION_OPTIONS, type Task } from "@svc/contracts";
import { CONTAINER_OPTIONS, JOB_OPTIONS, POLICY_OPTIONS, SCALING_OPTIONS, TASK_OPTIONS } from "./parse-run-args";
import { SCALING_DESCRIPTIONS } from "../deployments/scaling-options";

const DESCRIPTIONS: Record<string, string> = {
  "--time": "Job duration: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS",
  "--ntasks-per-node": "Tasks per compute node",
  "--mem": "Memory per node in GB",
  "--gres": "GPU devices per node (1 or more selects a GPU engine for text generation: see --engine)",
  "--nodes": "Nodes of the job: a GPU service across them (tensor parallel within each node, pipeline parallel across; slurm profiles only)",
  "--engine": "GPU text-generation engine: vllm or sglang (default: the profile's engine, else vllm); its arguments are checked against the options of its version where it runs (read from the image or the cluster's Python, else the pinned version)",
  "--engine-version": "the GPU engine's version where it runs, when you know better than svc (e.g. 0.11.1): its arguments are checked against that version's options",
  "--partition": "Cluster partition (default: the profile's partition)",
  "--constraint": "Required node features",
  "--account": "Slurm account to charge (default: the profile's account)",
  "--qos": "Slurm quality of service (default: the profile's qos)",
  "--reservation": "Slurm reservation to run in",
  "--exclude": "Nodes not to run on (a Slurm hostlist, e.g. node[01-04])",
  "--nodelist": "Nodes to run on (a Slurm hostlist)",
  "--mount": "Host folder bound read-only into the service at the same path (repeatable)",
  "--grace-period": "Seconds a starting service may fail its health check before it is UNHEALTHY (default: no limit)",
  "--image": "Container image of this service's inference server (default: the app's, see 'svc image ls')",
  "--profile": "Profile to use (default: default)",
  "--name": "Service name (default: svc- plus a number)",
  "--revision": "Model revision (default: the most recent local one)",
  "--dry-run": "Print the start-up script; start nothing",
  "--api-key": "Key callers must send as 'Authorization: Bearer <key>'",
  "--disable-custom-kernels": "Disable custom GPU kernels",
  "--sharded": "true/false: shard the model across all GPUs (needs 2 or more)",
  "--max-input-length": "Maximum input length in tokens",
  "--max-total-tokens": "Maximum input plus output length in tokens",
  "--adapter": "LoRA adapter of the registry served on the model, a model of /v1 under its repo id (repeatable; GGUF on the CPU runtime, PEFT on vLLM/SGLang)",
  "--idle-stop": "Stop the service after it answered no request for this long (30s, 30m, 2h, HH:MM:SS; 0: never; default: the profile's idle_stop)",
  "--on-demand": "A request for the service while it is STOPPED starts it again and waits until it is HEALTHY",
  "--start-timeout": "How long such a request waits before 503 with the scheduler's reason (default 15m)",
  "--renew": "Slurm, with --time: hand over to a successor job before the time limit, so the service outlives it",
  "--renew-before": "How long before the job's end time the successor is submitted (default 10m)",
  "--json": "Print the API's answer (the new service, or the dry run's script) as JSON",
  "--input-dir": "Folder on the service host that audio_path is resolved in (default <home>/inputs)",
  ...SCALING_DESCRIPTIONS,
};

function table(title: string, rows: string[][]): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return `${title}:\n${rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join("\n")}`;
}

const section = (title: string, options: { names: string[]; kind: unknown }[]) =>
  table(title, options.map((o) => [`${o.names.join(", ")}${o.kind === "flag" ? "" : " <value>"}`, DESCRIPTIONS[o.names[0]] ?? ""]));

/** The CPU runtime's engine options, from the table the orchestrator checks them with. */
const engineOptions = () =>
  table(
    "Engine options of the CPU text-generation runtime (llama.cpp server names; others are refused)",
    CPU_TEXT_GENERATION_OPTIONS.map((option) => {
      const value = option.value.type === "flag" ? "" : option.value.type === "choice" ? ` ${option.value.choices.join("|")}` : " <n>";
      return [`${[option.name, ...option.aliases].join(", ")}${value}`, option.description];
    }),
  );

export function runHelp(task?: Task): string {
  const tasks: Task[] = task ? [task] : ["text-generation", "speech-recognition"];
  return [
    `Usage: svc run [options] ${task ?? "<text-generation|speech-recognition>"} MODEL [options]${task !== "speech-recognition" ? " [engine args…]" : ""}`,
    "",
    "Starts an inference service for MODEL (<owner>/<name>, as listed by 'svc model ls') and prints its id.",
    "svc's options may stand anywhere, before or after the task and the model.",
    "Slurm job options do nothing on a local profile (Docker honours --mem and --gres): svc run warns about each one given.",
    "",
    section("Job options (Slurm's sbatch)", JOB_OPTIONS),
    "",
    section("Lifecycle policies (before or after the task)", POLICY_OPTIONS),
    "",
    section("Container options", [...CONTAINER_OPTIONS, { names: ["--json"], kind: "flag" }]),
    "",
    section("Replicas: a deployment named by --name, its replicas <name>-1, <name>-2, … ('svc scale' changes these later)", SCALING_OPTIONS),
    ...tasks.flatMap((t) => ["", section(`${t} options`, TASK_OPTIONS[t])]),
    ...(task !== "speech-recognition"
      ? [
          "",
          engineOptions(),
          "",
          "Other arguments after MODEL go to the text-generation engine unchanged, each as one argument ('--' ends svc's own options):",
          "the CPU runtime refuses any not listed above at 'svc run'; vLLM and SGLang (--gres 1 or more) take their own, checked at 'svc run'",
          "against the options of the version svc runs (vLLM v0.28.0, SGLang v0.5.18; a cluster's own version where svc finds it): a misspelt one is refused with the nearest real one.",
        ]
      : []),
  ].join("\n");
}
