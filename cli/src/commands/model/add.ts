import type { CAC } from "cac";
import { ApiError } from "@svc/client";
import type { DownloadTask } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatBytes, ProgressDisplay } from "../../output/progress";
import { modelTable } from "./ls";

export interface AddDeps {
  /** Whether standard error is a terminal (draws the bar). */
  tty?: boolean;
  pollMs?: number;
}

export function registerModelAdd(cli: CAC, ctx: CliContext, deps: AddDeps = {}) {
  cli
    .command("add <repo_id>", "Download a model from the hub into a local profile's home folder and register it")
    .option("-r, --revision <revision>", "Branch, tag or commit to download (default: main)")
    .option("-p, --profile <profile>", "Local profile to download into (default: default)")
    .option("--json", "Print the finished download task as JSON")
    .action(async (repo: string, options: { revision?: string; profile?: string; json?: boolean }) => {
      if (options.revision !== undefined && typeof options.revision !== "string") throw new UsageError("--revision needs a branch, tag or commit id.");
      if (options.profile !== undefined && typeof options.profile !== "string") throw new UsageError("--profile needs a profile name.");
      const client = ctx.client();
      let task: DownloadTask = await client.models.startDownload({ repo: String(repo), revision: options.revision, profile: options.profile });
      const tty = deps.tty ?? Boolean(process.stderr.isTTY);
      ctx.io.err(
        `Downloading ${task.repo} at ${task.revision}${task.requestedRevision !== task.revision ? ` (${task.requestedRevision})` : ""} into profile ${task.profile}: ` +
          `${task.filesTotal} file${task.filesTotal === 1 ? "" : "s"}, ${formatBytes(task.bytesTotal)}` +
          (task.bytesResumed > 0 ? `; resuming with ${formatBytes(task.bytesResumed)} already here.` : "."),
      );
      const progress = new ProgressDisplay({ tty, write: (text) => process.stderr.write(text), line: ctx.io.err, columns: process.stderr.columns });
      const pollMs = deps.pollMs ?? (tty ? 200 : 500);
      progress.update(task.bytesDone, task.bytesTotal);
      while (task.state === "running") {
        await Bun.sleep(pollMs);
        task = await client.models.download(task.id);
        progress.update(task.bytesDone, task.bytesTotal);
      }
      progress.finish();
      if (task.state === "failed") {
        throw new ApiError(502, task.error?.error ?? "download_failed", task.error?.message ?? "The download failed.");
      }
      ctx.emit(task, Boolean(options.json), () => (task.model ? `${modelTable([task.model])}\n\nFiles: ${task.model.modelDir}` : "Done."));
    });
}
