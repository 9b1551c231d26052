import type { CAC } from "cac";
import { StateError, UsageError } from "../../errors";
import type { CliContext } from "../../io";
import type { PromptingContext } from "../../prompt";
import { registerWorkloadRm, registerWorkloadStop, SERVICE } from "../workloads";
import { AS_DEPLOYMENT } from "../deployments/alternative";

export function registerStop(cli: CAC, ctx: CliContext) {
  registerWorkloadStop(cli, ctx, SERVICE, { usage: "stop <service>", description: "Stop a service and free its resources; a deployment: drain and stop every replica, scaling off" }, [AS_DEPLOYMENT]);
}

export function registerRestart(cli: CAC, ctx: CliContext) {
  cli.command("restart <service>", "Start a stopped or failed service again, same id and spec").action(async (ref: string) => {
    const record = await ctx.client().services.restart(String(ref));
    ctx.io.out(`Restarting service ${record.id} (${record.status}); 'svc ls' shows when it is HEALTHY.`);
  });
}

export function registerRm(cli: CAC, ctx: CliContext & PromptingContext) {
  registerWorkloadRm(cli, ctx, SERVICE, {
    usage: "rm <service>",
    description: "Delete a service's record, or a deployment's with its replicas' (asks first)",
    forceHelp: "Stop a live service first",
    liveRefusal: (details) => new StateError(`service ${details.id} is ${details.status}: stop it first ('svc stop ${details.id.slice(0, 13)}'), or remove it running with 'svc rm --force ${details.id.slice(0, 13)}'.`),
    afterQuestion: "",
  }, [AS_DEPLOYMENT]);
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
