import type { CAC } from "cac";
import { ApiError } from "@svc/client";
import { describeFilePatterns, type DownloadTask } from "@svc/contracts";
import { UsageError } from "../../errors";
import type { CliContext } from "../../io";
import { formatBytes, ProgressDisplay } from "../../output/progress";
import { modelTable } from "./ls";

export interface AddDeps {
  /** Whether standard error is a terminal (draws the bar). */
  tty?: boolean;
  pollMs?: number;
}

/**
 * The values of a repeatable pattern option, read from the raw arguments: cac turns values that
 * look like numbers into numbers (and "" into 0), which would change a pattern.
 */
function patternList(rawArgs: string[], option: string): string[] | undefined {
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length && rawArgs[i] !== "--"; i++) {
    if (rawArgs[i] === option) values.push(rawArgs[++i] ?? "");
    else if (rawArgs[i].startsWith(`${option}=`)) values.push(rawArgs[i].slice(option.length + 1));
  }
  if (values.some((v) => v === "")) throw new UsageError(`${option} needs a pattern, e.g. ${option} '*.gguf'.`);
  return values.length > 0 ? values : undefined;
}

export function registerModelAdd(cli: CAC, ctx: CliContext, deps: AddDeps = {}) {
  cli
    .command("add <repo_id>", "Download a model from the hub into a local profile's home folder and register it")
    .option("-r, --revision <revision>", "Branch, tag or commit to download (default: main)")
    .option("-p, --profile <profile>", "Local profile to download into (default: default)")
    .option("--include <pattern>", "Download only files whose path in the repo matches (repeatable; huggingface-cli's glob patterns, e.g. '*Q4_K_M*.gguf')")
    .option("--exclude <pattern>", "Leave out files whose path matches (repeatable; e.g. 'onnx/' for a whole folder)")
    .option("--json", "Print the finished download task as JSON")
    .action(async (repo: string, options: { revision?: string; profile?: string; json?: boolean }) => {
      if (options.revision !== undefined && typeof options.revision !== "string") throw new UsageError("--revision needs a branch, tag or commit id.");
      if (options.profile !== undefined && typeof options.profile !== "string") throw new UsageError("--profile needs a profile name.");
      const include = patternList(cli.rawArgs, "--include");
      const exclude = patternList(cli.rawArgs, "--exclude");
      const client = ctx.client();
      ctx.io.err(`Asking the hub for ${repo} at ${options.revision ?? "main"}…`);
      let task: DownloadTask = await client.models.startDownload({ repo: String(repo), revision: options.revision, profile: options.profile, include, exclude });
      const tty = deps.tty ?? Boolean(process.stderr.isTTY);
      const selection = task.filesSkipped > 0 ? ` of ${task.filesTotal + task.filesSkipped} (${describeFilePatterns(task)})` : "";
      ctx.io.err(
        `Downloading ${task.repo} at ${task.revision}${task.requestedRevision !== task.revision ? ` (${task.requestedRevision})` : ""} into profile ${task.profile}: ` +
          `${task.filesTotal} file${task.filesTotal === 1 && !selection ? "" : "s"}${selection}, ${formatBytes(task.bytesTotal)}` +
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
