import type { CAC } from "cac";
import { BATCH_STATUSES, type BatchStatus } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import type { PromptingContext } from "../../prompt";
import { BATCH_JOB, registerWorkloadDetails, registerWorkloadRm, registerWorkloadStop } from "../workloads";
import { formatBatchDetails, formatBatchTable } from "./format";

export function registerBatchLs(cli: CAC, ctx: CliContext) {
  cli
    .command("ls", "List batch jobs with their progress: live ones and those that ended in the last 24 h (--all: every one)")
    .option("--all", "The whole history")
    .option("--status <status>", `Only jobs with this status (${BATCH_STATUSES.join(", ")})`)
    .option("--json", "Print JSON")
    .action(async (options: { all?: boolean; status?: string; json?: boolean }) => {
      const status = options.status?.toUpperCase();
      if (status !== undefined && !(BATCH_STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status ${options.status}: use one of ${BATCH_STATUSES.join(", ")}.`);
      const batches = await ctx.client().batches.list({ all: options.all, status: status as BatchStatus | undefined });
      ctx.emit(batches, Boolean(options.json), () =>
        batches.length === 0 ? (options.all || status ? "No batch jobs match." : "No batch jobs live or ended in the last 24 h. 'svc batch ls --all' lists older ones; 'svc batch run --help' says how to start one.") : formatBatchTable(batches),
      );
    });
}

export function registerBatchDetails(cli: CAC, ctx: CliContext) {
  registerWorkloadDetails(cli, ctx, BATCH_JOB, { usage: "details <batch>", description: "A batch job: its options, each input's status, its failures and events", format: formatBatchDetails });
}

export function registerBatchStop(cli: CAC, ctx: CliContext) {
  registerWorkloadStop(cli, ctx, BATCH_JOB, { usage: "stop <batch>", description: "Stop a batch job ('svc batch resume' starts it again)" });
}

export function registerBatchResume(cli: CAC, ctx: CliContext) {
  cli
    .command("resume <batch>", "Start a stopped, failed or completed batch job again; inputs with an output are skipped")
    .option("--retry-failed", "Run the inputs that failed again")
    .action(async (ref: string, options: { retryFailed?: boolean }) => {
      const record = await ctx.client().batches.resume(String(ref), { retryFailed: options.retryFailed });
      ctx.io.out(`Resumed batch job ${record.id} (${record.status}, allocation ${record.allocations}); 'svc batch ls' shows its progress.`);
    });
}

export function registerBatchRm(cli: CAC, ctx: CliContext & PromptingContext) {
  registerWorkloadRm(cli, ctx, BATCH_JOB, {
    usage: "rm <batch>",
    description: "Delete a batch job's record (its outputs stay; asks first)",
    forceHelp: "Stop a live job first",
    liveRefusal: (details) => new UsageError(`batch job ${details.id} is ${details.status}: stop it first ('svc batch stop ${details.id.slice(0, 13)}') or add --force.`),
    afterQuestion: " Its outputs stay.",
  });
}
