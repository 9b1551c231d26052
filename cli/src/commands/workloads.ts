import type { CAC } from "cac";
import type { SvcClient } from "@svc/client";
import { isLive, isLiveBatch, type BatchDetails, type BatchRecord, type ServiceDetails, type ServiceRecord } from "@svc/contracts";
import { UsageError } from "../errors";
import type { CliContext } from "../io";
import type { PromptingContext } from "../prompt";

/**
 * What the commands of services (`svc details`, `svc stop`, `svc rm`) and of batch jobs (`svc batch
 * details`, `stop`, `rm`) share: both are workloads on an engine, told apart by their part of the API
 * and by the words the CLI names one with.
 */
type WorkloadRecord = { id: string; name: string; status: string };

export interface WorkloadKind<R extends WorkloadRecord, D extends R> {
  /** How messages name one: "service", "batch job". */
  noun: string;
  api(client: SvcClient): {
    get(ref: string): Promise<D>;
    stop(ref: string): Promise<R>;
    remove(ref: string, options: { force?: boolean }): Promise<R>;
  };
  isLive(status: string): boolean;
}

export const SERVICE: WorkloadKind<ServiceRecord, ServiceDetails> = { noun: "service", api: (client) => client.services, isLive };
export const BATCH_JOB: WorkloadKind<BatchRecord, BatchDetails> = { noun: "batch job", api: (client) => client.batches, isLive: isLiveBatch };

const STOP_WAIT_MS = 30_000;

/** `details <ref>`: the workload as `format` writes it, or JSON with --json. */
export function registerWorkloadDetails<R extends WorkloadRecord, D extends R>(
  cli: CAC,
  ctx: CliContext,
  kind: WorkloadKind<R, D>,
  command: { usage: string; description: string; format: (details: D) => string },
) {
  cli
    .command(command.usage, command.description)
    .option("--json", "Print JSON")
    .action(async (ref: string, options: { json?: boolean }) => {
      const details = await kind.api(ctx.client()).get(String(ref));
      ctx.emit(details, Boolean(options.json), () => command.format(details));
    });
}

/** `stop <ref>`: stops it and, unless --no-wait, waits up to 30 s until it is no longer live; says which it is. */
export function registerWorkloadStop<R extends WorkloadRecord, D extends R>(cli: CAC, ctx: CliContext, kind: WorkloadKind<R, D>, command: { usage: string; description: string }) {
  cli
    .command(command.usage, command.description)
    .option("--no-wait", "Return at once instead of waiting until it has stopped")
    .action(async (ref: string, options: { wait?: boolean }) => {
      const api = kind.api(ctx.client());
      let record: R = await api.stop(String(ref));
      const deadline = Date.now() + STOP_WAIT_MS;
      while (options.wait !== false && kind.isLive(record.status) && Date.now() < deadline) {
        await Bun.sleep(200);
        record = await api.get(record.id);
      }
      ctx.io.out(kind.isLive(record.status) ? `Stopping ${kind.noun} ${record.id} (${record.status}).` : `Stopped ${kind.noun} ${record.id}.`);
    });
}

/**
 * `rm <ref>`: refuses a live one without --force (`liveRefusal` says what to do instead), asks first
 * unless --yes (`afterQuestion` ends the prompt's line), then removes the record.
 */
export function registerWorkloadRm<R extends WorkloadRecord, D extends R>(
  cli: CAC,
  ctx: CliContext & PromptingContext,
  kind: WorkloadKind<R, D>,
  command: { usage: string; description: string; forceHelp: string; liveRefusal: (details: D) => Error; afterQuestion: string },
) {
  cli
    .command(command.usage, command.description)
    .option("--yes", "Do not ask for confirmation")
    .option("--force", command.forceHelp)
    .action(async (ref: string, options: { yes?: boolean; force?: boolean }) => {
      const api = kind.api(ctx.client());
      const details = await api.get(String(ref));
      if (kind.isLive(details.status) && !options.force) throw command.liveRefusal(details);
      if (!options.yes) {
        const prompter = ctx.prompter();
        try {
          if (!prompter.interactive) throw new UsageError(`removing ${kind.noun} ${details.id} needs confirmation, but there is no terminal to ask in: pass --yes.`);
          if (!(await prompter.confirm(`Remove the record of ${kind.noun} ${details.name} (${details.id}, ${details.status})?${command.afterQuestion}`, { flag: "--yes" }))) {
            ctx.io.err(`Kept ${kind.noun} ${details.id}.`);
            return;
          }
        } finally {
          prompter.close();
        }
      }
      const removed = await api.remove(details.id, { force: options.force });
      ctx.io.out(`Removed ${kind.noun} ${removed.id}.`);
    });
}
