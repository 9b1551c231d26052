import type { CAC } from "cac";
import { ApiError } from "@svc/client";
import type { CliContext } from "../../io";
import { followInstall, type FollowOptions } from "./follow-install";

export function registerRuntimeInstall(cli: CAC, ctx: CliContext, options: FollowOptions = {}) {
  cli
    .command("install", "Install the svc runtime (Bun and the runtime tree for the cluster's CPU) on a slurm profile's cluster")
    .option("-p, --profile <profile>", "Slurm profile (default: default)")
    .option("--json", "Print the finished install as JSON")
    .action(async (flags: { profile?: string; json?: boolean }) => {
      const client = ctx.client();
      const task = await followInstall(client, await client.runtimes.install(flags.profile), ctx, options);
      if (task.state === "failed") throw new ApiError(502, task.error?.error ?? "runtime_install_failed", task.error?.message ?? "The install failed.");
      ctx.emit(task, Boolean(flags.json), () =>
        task.alreadyInstalled ? `The svc runtime ${task.version} (${task.arch}) is installed on ${task.host} already: nothing was sent.` : task.notes.join("\n"),
      );
    });
}
