import type { CAC } from "cac";
import type { SvcClient } from "@svc/client";
import { ApiError, isLive, isLiveBatch, type BatchDetails, type BatchRecord, type DeploymentDetails, type DeploymentRecord, type ServiceDetails, type ServiceRecord } from "@svc/contracts";
import { UsageError } from "../errors";
import type { CliContext } from "../io";
import type { PromptingContext } from "../prompt";

/**
 * What the commands of services (`svc details`, `svc stop`, `svc rm`) and of batch jobs (`svc batch
 * details`, `stop`, `rm`) share: both are workloads on an engine, told apart by their part of the API
 * and by the words the CLI names one with. `svc details`, `stop` and `rm` take a deployment too: a
 * ref that names no service is looked up as a deployment (`or`).
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
  /** Whether it still runs (or, for a deployment, may start a replica). */
  isLive(record: R): boolean;
}

export const SERVICE: WorkloadKind<ServiceRecord, ServiceDetails> = { noun: "service", api: (client) => client.services, isLive: (r) => isLive(r.status) };
export const BATCH_JOB: WorkloadKind<BatchRecord, BatchDetails> = { noun: "batch job", api: (client) => client.batches, isLive: (r) => isLiveBatch(r.status) };
/**
 * A deployment is live while ACTIVE (its scaler may start replicas) or while any replica still runs
 * (a draining one included). Its stop answers with the details, so `svc stop` waits for the replicas.
 */
export const DEPLOYMENT: WorkloadKind<DeploymentRecord, DeploymentDetails> = {
  noun: "deployment",
  api: (client) => ({
    get: (ref) => client.deployments.get(ref),
    stop: async (ref) => client.deployments.get((await client.deployments.stop(ref)).id),
    remove: (ref, options) => client.deployments.remove(ref, options),
  }),
  isLive: (d) => d.status === "ACTIVE" || ("replicas" in d ? (d as DeploymentDetails).replicas.some((r) => isLive(r.status)) : d.healthy + d.coming > 0),
};

/** Per kind of workload a command takes: how `details` writes one; what `rm` says to a live one without --force, and after its question. */
export interface WorkloadWords<D> {
  format?: (details: D) => string;
  /** More for `details` to show after `format`'s text, read from another part of the API (not in --json). */
  more?: (client: SvcClient, details: D) => Promise<string | undefined>;
  liveRefusal?: (details: D) => Error;
  afterQuestion?: string;
}
export type Alternative = { kind: WorkloadKind<any, any>; words: WorkloadWords<any> };

/**
 * `call` on the first kind that knows `ref`: the command's own kind, then `or` (a service ref that
 * is not found is tried as a deployment's). Not found by any: one 404 that names them all.
 */
async function onKindOf<T>(ref: string, kinds: Alternative[], call: (alternative: Alternative) => Promise<T>): Promise<{ alternative: Alternative; value: T }> {
  for (const [i, alternative] of kinds.entries()) {
    try {
      return { alternative, value: await call(alternative) };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404 || i === kinds.length - 1) {
        if (i > 0 && error instanceof ApiError && error.status === 404) {
          throw new ApiError(404, error.code, `No ${kinds.map((k) => k.kind.noun).join(" or ")} has the id or name ${ref}. 'svc ls --all' lists them.`);
        }
        throw error;
      }
    }
  }
  throw new Error("no kind of workload to look up");
}

const STOP_WAIT_MS = 30_000;

/** `details <ref>`: the workload as `format` writes it, or JSON with --json. */
export function registerWorkloadDetails<R extends WorkloadRecord, D extends R>(
  cli: CAC,
  ctx: CliContext,
  kind: WorkloadKind<R, D>,
  command: { usage: string; description: string } & Pick<WorkloadWords<D>, "format" | "more">,
  or: Alternative[] = [],
) {
  cli
    .command(command.usage, command.description)
    .option("--json", "Print JSON")
    .action(async (ref: string, options: { json?: boolean }) => {
      const kinds = [{ kind, words: { format: command.format, more: command.more } }, ...or];
      const { alternative, value } = await onKindOf(String(ref), kinds, (a) => a.kind.api(ctx.client()).get(String(ref)));
      const more = options.json ? undefined : await alternative.words.more?.(ctx.client(), value);
      ctx.emit(value, Boolean(options.json), () => `${alternative.words.format!(value)}${more ? `\n\n${more}` : ""}`);
    });
}

/** `stop <ref>`: stops it and, unless --no-wait, waits up to 30 s until it is no longer live; says which it is. */
export function registerWorkloadStop<R extends WorkloadRecord, D extends R>(
  cli: CAC,
  ctx: CliContext,
  kind: WorkloadKind<R, D>,
  command: { usage: string; description: string },
  or: Alternative[] = [],
) {
  cli
    .command(command.usage, command.description)
    .option("--no-wait", "Return at once instead of waiting until it has stopped")
    .action(async (ref: string, options: { wait?: boolean }) => {
      const found = await onKindOf(String(ref), [{ kind, words: {} }, ...or], (a) => a.kind.api(ctx.client()).stop(String(ref)));
      const { kind: stopped } = found.alternative;
      let record: WorkloadRecord = found.value;
      const deadline = Date.now() + STOP_WAIT_MS;
      while (options.wait !== false && stopped.isLive(record) && Date.now() < deadline) {
        await Bun.sleep(200);
        record = await stopped.api(ctx.client()).get(record.id);
      }
      ctx.io.out(stopped.isLive(record) ? `Stopping ${stopped.noun} ${record.id} (${record.status}).` : `Stopped ${stopped.noun} ${record.id}.`);
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
  or: Alternative[] = [],
) {
  cli
    .command(command.usage, command.description)
    .option("--yes", "Do not ask for confirmation")
    .option("--force", command.forceHelp)
    .action(async (ref: string, options: { yes?: boolean; force?: boolean }) => {
      const found = await onKindOf(String(ref), [{ kind, words: { liveRefusal: command.liveRefusal, afterQuestion: command.afterQuestion } }, ...or], (a) => a.kind.api(ctx.client()).get(String(ref)));
      const { kind: removing, words } = found.alternative;
      const api = removing.api(ctx.client());
      const details: WorkloadRecord = found.value;
      if (removing.isLive(details) && !options.force) throw words.liveRefusal!(details);
      if (!options.yes) {
        const prompter = ctx.prompter();
        try {
          if (!prompter.interactive) throw new UsageError(`removing ${removing.noun} ${details.id} needs confirmation, but there is no terminal to ask in: pass --yes.`);
          if (!(await prompter.confirm(`Remove the record of ${removing.noun} ${details.name} (${details.id}, ${details.status})?${words.afterQuestion ?? ""}`, { flag: "--yes" }))) {
            ctx.io.err(`Kept ${removing.noun} ${details.id}.`);
            return;
          }
        } finally {
          prompter.close();
        }
      }
      const removed = await api.remove(details.id, { force: options.force });
      ctx.io.out(`Removed ${removing.noun} ${removed.id}.`);
    });
}
