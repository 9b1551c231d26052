import type { CAC } from "cac";
import { isRuntimeVersionId } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";

export function registerRuntimeRm(cli: CAC, ctx: CliContext) {
  cli
    .command("rm", "Remove svc runtime versions from a slurm profile's cluster: --version V, or every version but the current one")
    .option("-p, --profile <profile>", "Slurm profile (default: default)")
    .option("--version <version>", "The version to remove (see 'svc runtime ls')")
    .option("--json", "Print JSON")
    .action(async (flags: { profile?: string; version?: string; json?: boolean }) => {
      if (flags.version !== undefined && !isRuntimeVersionId(String(flags.version))) throw new UsageError("--version needs a version id from 'svc runtime ls' (16 hex digits).");
      const removed = await ctx.client().runtimes.remove(flags.profile, flags.version === undefined ? undefined : String(flags.version));
      ctx.emit(removed, Boolean(flags.json), () => (removed.removed.length === 0 ? "Nothing to remove." : `Removed ${removed.removed.join(", ")} from profile ${removed.profile}.`));
    });
}
