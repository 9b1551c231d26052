import type { CliContext } from "../../io";
import { submitParsed } from "../run/submitting";
import { BATCH_RUN_HELP, parseBatchRunArgs } from "./parse-batch-args";

/** `svc batch run`: steps and warnings to stderr, the new job's id (or the dry run's script) to stdout. */
export async function runBatch(args: string[], ctx: CliContext) {
  const submitted = await submitParsed(ctx, parseBatchRunArgs(args), () => BATCH_RUN_HELP, (client, request) => client.batches.run(request));
  if (!submitted) return;
  const { request, result } = submitted;
  for (const warning of result.warnings) ctx.io.err(`warning: ${warning}`);
  if (request.dryRun) {
    ctx.io.err("Dry run: this is the job's start-up script; nothing was started.");
    ctx.io.out(result.script);
    return;
  }
  ctx.io.err(`Started batch job ${result.batch!.name} (${request.task}, ${result.batch!.adapter ? `${result.batch!.adapter} on ${result.batch!.model}` : request.model}@${result.revision.slice(0, 12)}); 'svc batch ls' shows its progress.`);
  ctx.io.out(result.batch!.id);
}
