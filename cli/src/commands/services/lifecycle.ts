import type { CAC } from "cac";
import { isLive } from "@svc/contracts";
import { StateError, UsageError } from "../../errors";
import type { CliContext } from "../../io";
import type { PromptingContext } from "../../prompt";

const STOP_WAIT_MS = 30_000;

export function registerStop(cli: CAC, ctx: CliContext) {
  cli
    .command("stop <service>", "Stop a service and free its resources")
    .option("--no-wait", "Return at once instead of waiting until it has stopped")
    .action(async (ref: string, options: { wait?: boolean }) => {
      const services = ctx.client().services;
      let record = await services.stop(String(ref));
      const deadline = Date.now() + STOP_WAIT_MS;
      while (options.wait !== false && isLive(record.status) && Date.now() < deadline) {
        await Bun.sleep(200);
        record = await services.get(record.id);
      }
      ctx.io.out(isLive(record.status) ? `Stopping service ${record.id} (${record.status}).` : `Stopped service ${record.id}.`);
    });
}

export function registerRestart(cli: CAC, ctx: CliContext) {
  cli.command("restart <service>", "Start a stopped or failed service again, same id and spec").action(async (ref: string) => {
    const record = await ctx.client().services.restart(String(ref));
    ctx.io.out(`Restarting service ${record.id} (${record.status}); 'svc ls' shows when it is HEALTHY.`);
  });
}

export function registerRm(cli: CAC, ctx: CliContext & PromptingContext) {
  cli
    .command("rm <service>", "Delete a service's record (asks first)")
    .option("--yes", "Do not ask for confirmation")
    .option("--force", "Stop a live service first")
    .action(async (ref: string, options: { yes?: boolean; force?: boolean }) => {
      const services = ctx.client().services;
      const details = await services.get(String(ref));
      if (isLive(details.status) && !options.force) {
        throw new StateError(`service ${details.id} is ${details.status}: stop it first ('svc stop ${details.id.slice(0, 13)}'), or remove it running with 'svc rm --force ${details.id.slice(0, 13)}'.`);
      }
      if (!options.yes) {
        const prompter = ctx.prompter();
        try {
          if (!prompter.interactive) {
            throw new UsageError(`removing service ${details.id} needs confirmation, but there is no terminal to ask in: pass --yes.`);
          }
          if (!(await prompter.confirm(`Remove the record of service ${details.name} (${details.id}, ${details.status})?`, { flag: "--yes" }))) {
            ctx.io.err(`Kept service ${details.id}.`);
            return;
          }
        } finally {
          prompter.close();
        }
      }
      const removed = await services.remove(details.id, { force: options.force });
      ctx.io.out(`Removed service ${removed.id}.`);
    });
}

export function registerLogs(cli: CAC, ctx: CliContext) {
  cli
    .command("logs <service>", "Print a service's output")
    .option("-f, --follow", "Keep printing new output")
    .option("--tail <lines>", "Only the last N lines")
    .action(async (ref: string, options: { follow?: boolean; tail?: string | number }) => {
      const tail = options.tail === undefined ? undefined : Number(options.tail);
      if (tail !== undefined && (!Number.isInteger(tail) || tail < 0)) throw new UsageError(`--tail ${options.tail}: use a whole number of lines.`);
      const stream = await ctx.client().services.logs(String(ref), { follow: options.follow, tail });
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) process.stdout.write(chunk);
    });
}
