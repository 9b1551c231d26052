import type { CAC } from "cac";
import type { RuntimeList } from "@svc/contracts";
import type { CliContext } from "../../io";
import { formatBytes } from "../../output/progress";
import { relativeAge } from "../../output/age";
import { formatTable } from "../../output/table";

function human(list: RuntimeList): string {
  const table = formatTable(
    ["version", "arch", "tasks", "size", "installed", "current", "services"],
    list.versions.map((v) => [v.version, v.arch, v.tasks.join(","), formatBytes(v.sizeBytes), relativeAge(v.installedAt), v.current ? "yes" : "", v.services.length || ""]),
  );
  const lines = [`Profile ${list.profile} (${list.host}, ${list.machine}): svc starts jobs with version ${list.current}${list.versions.some((v) => v.current) ? "." : ", not installed yet ('svc runtime install' or the next 'svc run' installs it)."}`];
  for (const { task, reason } of list.unavailable) lines.push(`${task} cannot run there: ${reason}.`);
  return `${list.versions.length > 0 ? `${table}\n\n` : "No svc runtime is installed there.\n\n"}${lines.join("\n")}`;
}

export function registerRuntimeLs(cli: CAC, ctx: CliContext) {
  cli
    .command("ls", "List the svc runtime versions on a slurm profile's cluster: version, size, date, and which one svc uses")
    .option("-p, --profile <profile>", "Slurm profile (default: default)")
    .option("--json", "Print JSON")
    .action(async (flags: { profile?: string; json?: boolean }) => {
      const list = await ctx.client().runtimes.list(flags.profile);
      ctx.emit(list, Boolean(flags.json), () => human(list));
    });
}
