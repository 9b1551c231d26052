import { remotePathWord } from "@svc/ssh";
import type { Observation } from "../engine";
import { JOB_FILES } from "./job-script";
import { FAILED_MARK } from "./multi-node";
import { CANNOT_START } from "./runtime-command";

/** A service's Slurm handle: `<job id>:<work folder on the cluster>`. */
export interface JobRef {
  jobId: string;
  workDir: string;
}

const JOB_ID = /^[0-9]+$/;

export function formatHandle(ref: JobRef): string {
  return `${ref.jobId}:${ref.workDir}`;
}

export function parseHandle(handle: string): JobRef {
  const colon = handle.indexOf(":");
  const jobId = colon > 0 ? handle.slice(0, colon) : "";
  if (!JOB_ID.test(jobId)) throw new Error(`${JSON.stringify(handle)} is not a Slurm handle (<job id>:<work folder>).`);
  return { jobId, workDir: handle.slice(colon + 1) };
}

/** What one status pass learnt about one job. */
export interface JobStatus {
  jobId: string;
  /** Slurm's JobState (e.g. PENDING, RUNNING, TIMEOUT), or MISSING when Slurm no longer knows the job. */
  state: string;
  reason: string;
  exitCode: string;
  /** From the port file once the job wrote it: where its server listens. */
  server?: { host: string; port: number };
  /** When the job reaches its time limit (squeue's %e, read with the cluster's UTC offset), for jobs that have one. */
  endsAt?: string;
  /** The last lines of the job's output (for jobs that ended). */
  tail?: string;
  /** A batch job's progress file (JSON), when there is one. */
  progress?: string;
}

export class SlurmStatusError extends Error {
  override name = "SlurmStatusError";
}

const TERMINAL = "COMPLETED|FAILED|CANCELLED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|BOOT_FAIL|DEADLINE|PREEMPTED|SPECIAL_EXIT|REVOKED";
const TAIL_LINES = 20;

/**
 * One remote script for every job of a profile: one `squeue` for all of the user's jobs, then, only
 * for jobs that ended or that squeue no longer lists, `scontrol show job` (or `sacct` when the
 * controller has forgotten them), and the port file / output tail from each work folder. Its cost
 * is one round trip whatever the number of jobs.
 */
export function statusScript(refs: JobRef[]): string {
  const lines = [
    `q=$(SLURM_TIME_FORMAT=standard squeue -h -t all -u "$(id -un)" -o '%i|%T|%r|%e' 2>&1) || { printf '@error %s\\n' "$q" | tr '\\n' ' '; echo; exit 0; }`,
    // squeue writes times in the cluster's local time, without an offset.
    `printf '@tz %s\\n' "$(date +%z)"`,
    "show() {",
    `  line=$(printf '%s\\n' "$q" | grep -m1 "^$1|")`,
    `  state=$(printf '%s' "$line" | cut -d'|' -f2); reason=$(printf '%s' "$line" | cut -d'|' -f3); end=$(printf '%s' "$line" | cut -d'|' -f4); code=`,
    "  case \"$state\" in",
    `    ''|${TERMINAL})`,
    `      if s=$(scontrol show job -o "$1" 2>/dev/null) && [ -n "$s" ]; then`,
    `        state=$(printf '%s' "$s" | sed -n 's/.*JobState=\\([A-Z_]*\\).*/\\1/p')`,
    `        reason=$(printf '%s' "$s" | sed -n 's/.* Reason=\\([^ ]*\\).*/\\1/p')`,
    `        code=$(printf '%s' "$s" | sed -n 's/.* ExitCode=\\([0-9:]*\\).*/\\1/p')`,
    `      elif [ -z "$state" ] && command -v sacct >/dev/null 2>&1; then`,
    `        s=$(sacct -n -P -X -j "$1" -o State,ExitCode 2>/dev/null | head -n1)`,
    `        state=$(printf '%s' "$s" | cut -d'|' -f1 | cut -d' ' -f1); code=$(printf '%s' "$s" | cut -d'|' -f2)`,
    "      fi;;",
    "  esac",
    `  printf '@job %s|%s|%s|%s|%s\\n' "$1" "\${state:-MISSING}" "$reason" "$code" "$end"`,
    "  case \"$state\" in",
    `    RUNNING|COMPLETING|STAGE_OUT) [ -f "$2/${JOB_FILES.port}" ] && printf '@port %s\\n' "$(head -n1 "$2/${JOB_FILES.port}")";;`,
    `    ${TERMINAL}) [ -f "$2/${JOB_FILES.output}" ] && printf '@tail %s\\n' "$(tail -n ${TAIL_LINES} "$2/${JOB_FILES.output}" | base64 | tr -d '\\n')";;`,
    "  esac",
    `  [ -f "$2/${JOB_FILES.progress}" ] && printf '@progress %s\\n' "$(base64 < "$2/${JOB_FILES.progress}" | tr -d '\\n')"`,
    "  return 0",
    "}",
  ];
  for (const ref of refs) {
    if (!JOB_ID.test(ref.jobId)) throw new SlurmStatusError(`bad job id ${JSON.stringify(ref.jobId)}`);
    lines.push(`show ${ref.jobId} ${remotePathWord(ref.workDir)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** squeue's standard time format: 2026-11-25T12:34:56. */
const SLURM_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const ADDRESS = /^[A-Za-z0-9.:_-]{1,253}$/;

/** Reads the status script's output; throws SlurmStatusError when squeue itself failed (e.g. the controller is down). */
export function parseStatusOutput(stdout: string): Map<string, JobStatus> {
  const result = new Map<string, JobStatus>();
  let current: JobStatus | undefined;
  let offset = "+00:00";
  for (const line of stdout.split("\n")) {
    if (line.startsWith("@error ")) throw new SlurmStatusError(`squeue failed: ${line.slice(7).trim()}`);
    if (line.startsWith("@tz ")) {
      const tz = /^([+-])(\d\d)(\d\d)$/.exec(line.slice(4).trim());
      if (tz) offset = `${tz[1]}${tz[2]}:${tz[3]}`;
    } else if (line.startsWith("@job ")) {
      const [jobId, state, reason, exitCode, end] = line.slice(5).split("|");
      current = { jobId, state: state || "MISSING", reason: reason ?? "", exitCode: exitCode ?? "" };
      const endsAt = end && SLURM_TIME.test(end.trim()) ? new Date(`${end.trim()}${offset}`) : undefined;
      if (endsAt && !Number.isNaN(endsAt.getTime())) current.endsAt = endsAt.toISOString();
      result.set(jobId, current);
    } else if (line.startsWith("@port ") && current) {
      const [host, port] = line.slice(6).trim().split(/\s+/);
      const number = Number(port);
      if (host && ADDRESS.test(host) && Number.isInteger(number) && number > 0 && number < 65536) current.server = { host, port: number };
    } else if (line.startsWith("@progress ") && current) {
      current.progress = Buffer.from(line.slice(10).trim(), "base64").toString("utf8");
    } else if (line.startsWith("@tail ") && current) {
      current.tail = Buffer.from(line.slice(6).trim(), "base64").toString("utf8");
    }
  }
  return result;
}

const QUEUED = new Set(["PENDING", "CONFIGURING", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SUSPENDED", "STOPPED", "SIGNALING", "RESV_DEL_HOLD"]);
const RUNNING = new Set(["RUNNING", "COMPLETING", "STAGE_OUT"]);

/** Scheduler reasons in words (squeue's %r); others are shown as Slurm writes them. */
const PENDING_REASONS: Record<string, string> = {
  Resources: "waiting for resources to become free",
  Priority: "waiting behind jobs of higher priority",
  None: "queued, not scheduled yet",
  BeginTime: "waiting for its start time",
  Dependency: "waiting for a job it depends on",
  PartitionDown: "its partition is down",
  PartitionTimeLimit: "its --time is over the partition's limit",
  ReqNodeNotAvail: "the nodes it needs are not available",
  QOSMaxJobsPerUserLimit: "you have as many jobs running as your QOS allows",
};

function pendingReason(state: string, reason: string): string {
  const words = PENDING_REASONS[reason.split(",")[0]] ?? reason;
  const head = state === "PENDING" ? "" : `${state.toLowerCase()}: `;
  return reason ? `${head}${words} (Slurm: ${reason})` : `${head}queued`;
}

/** The output's last lines; a job script's first line saying why it could not start its server, or why it failed (a node lost), leads. */
function withTail(text: string, tail: string | undefined): string {
  const last = tail?.trim();
  if (!last) return text;
  const cause = last.split("\n").find((line) => line.startsWith(CANNOT_START) || line.startsWith(FAILED_MARK));
  const said = cause?.slice(cause.startsWith(CANNOT_START) ? CANNOT_START.length : FAILED_MARK.length);
  return `${said ? `${said} (${text})` : text}; last output:\n${last}`;
}

/**
 * A job's Slurm state as an engine-neutral observation. The running case carries the job's own
 * address; the engine replaces it with its local tunnel before the reconciler sees it.
 */
export function observe(status: JobStatus | undefined): Observation {
  if (!status || status.state === "MISSING") return { phase: "missing" };
  const { state, reason, exitCode, tail } = status;
  if (QUEUED.has(state)) return { phase: "queued", reason: pendingReason(state, reason) };
  if (RUNNING.has(state)) return { phase: "running", host: status.server?.host ?? "", port: status.server?.port ?? null };
  const code = exitCode ? `, exit code ${exitCode}` : "";
  const why = reason && reason !== "None" ? ` (${reason})` : "";
  switch (state) {
    case "CANCELLED":
      return { phase: "exited", outcome: "cancelled", reason: `the Slurm job was cancelled${why}` };
    case "TIMEOUT":
    case "DEADLINE":
      return { phase: "exited", outcome: "timeout", reason: withTail(`the Slurm job reached its --time limit (${state})`, tail) };
    case "COMPLETED":
      return { phase: "exited", outcome: "completed", reason: withTail(`the Slurm job ended: its server exited${code}`, tail) };
    case "OUT_OF_MEMORY":
      return { phase: "exited", outcome: "failed", reason: withTail(`the Slurm job ran out of memory (OUT_OF_MEMORY${code}): ask for more with --mem`, tail) };
    case "NODE_FAIL":
      return { phase: "exited", outcome: "failed", reason: withTail(`the Slurm job's node failed (NODE_FAIL${why})`, tail) };
    default:
      return { phase: "exited", outcome: "failed", reason: withTail(`the Slurm job ${state}${why}${code}`, tail) };
  }
}
