import type { CAC } from "cac";
import { BATCH_STATUSES, isLiveBatch, type BatchStatus } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import type { PromptingContext } from "../../prompt";
import { formatBatchDetails, formatBatchTable } from "./format";

const STOP_WAIT_MS = 30_000;

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
  cli
    .command("details <batch>", "A batch job: its options, each input's status, its failures and events")
    .option("--json", "Print JSON")
    .action(async (ref: string, options: { json?: boolean }) => {
      const details = await ctx.client().batches.get(String(ref));
      ctx.emit(details, Boolean(options.json), () => formatBatchDetails(details));
    });
}

export function registerBatchStop(cli: CAC, ctx: CliContext) {
  cli
    .command("stop <batch>", "Stop a batch job ('svc batch resume' starts it again)")
    .option("--no-wait", "Return at once instead of waiting until it has stopped")
    .action(async (ref: string, options: { wait?: boolean }) => {
      const batches = ctx.client().batches;
      let record = await batches.stop(String(ref));
      const deadline = Date.now() + STOP_WAIT_MS;
      while (options.wait !== false && isLiveBatch(record.status) && Date.now() < deadline) {
        await Bun.sleep(200);
        record = await batches.get(record.id);
      }
      ctx.io.out(isLiveBatch(record.status) ? `Stopping batch job ${record.id} (${record.status}).` : `Stopped batch job ${record.id}.`);
    });
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
  cli
    .command("rm <batch>", "Delete a batch job's record (its outputs stay; asks first)")
    .option("--yes", "Do not ask for confirmation")
    .option("--force", "Stop a live job first")
    .action(async (ref: string, options: { yes?: boolean; force?: boolean }) => {
      const batches = ctx.client().batches;
      const details = await batches.get(String(ref));
      if (isLiveBatch(details.status) && !options.force) throw new UsageError(`batch job ${details.id} is ${details.status}: stop it first ('svc batch stop ${details.id.slice(0, 13)}') or add --force.`);
      if (!options.yes) {
        const prompter = ctx.prompter();
        try {
          if (!prompter.interactive) throw new UsageError(`removing batch job ${details.id} needs confirmation, but there is no terminal to ask in: pass --yes.`);
          if (!(await prompter.confirm(`Remove the record of batch job ${details.name} (${details.id}, ${details.status})? Its outputs stay.`, { flag: "--yes" }))) {
            ctx.io.err(`Kept batch job ${details.id}.`);
            return;
          }
        } finally {
          prompter.close();
        }
      }
      const removed = await batches.remove(details.id, { force: options.force });
      ctx.io.out(`Removed batch job ${removed.id}.`);
    });
}
