import type { SvcClient } from "@svc/client";
import type { RuntimeInstall } from "@svc/contracts";
import type { CliContext } from "../../io";
import { formatBytes, ProgressDisplay } from "../../output/progress";
import { pauseUnless } from "../../pause";
import { isTerminal } from "../../output/terminal";

export interface FollowOptions {
  /** Whether standard error is a terminal (draws the bar). */
  tty?: boolean;
  pollMs?: number;
}

const announce = (task: RuntimeInstall) =>
  `Installing the svc runtime ${task.version} (${task.arch}) on ${task.host} for profile ${task.profile}: ${formatBytes(task.bytesTotal)}, sent compressed over the profile's connection.`;

function display(ctx: CliContext, tty: boolean) {
  return new ProgressDisplay({ tty, write: (text) => process.stderr.write(text), line: ctx.io.err, columns: process.stderr.columns });
}

/** Draws an install's progress until it ends; returns it as it ended. */
export async function followInstall(client: SvcClient, task: RuntimeInstall, ctx: CliContext, options: FollowOptions = {}): Promise<RuntimeInstall> {
  const tty = options.tty ?? isTerminal(2);
  if (task.state === "running") ctx.io.err(announce(task));
  const progress = display(ctx, tty);
  while (task.state === "running") {
    progress.update(task.bytesDone, task.bytesTotal);
    await Bun.sleep(options.pollMs ?? (tty ? 200 : 500));
    task = await client.runtimes.installTask(task.id);
  }
  if (!task.alreadyInstalled) progress.update(task.bytesDone, task.bytesTotal);
  progress.finish();
  return task;
}

/**
 * While `until` is pending (a `svc run`), shows the progress of any runtime install the
 * application runs for `profile`: a run that finds the runtime missing installs it first.
 */
export async function showInstallsWhile(client: SvcClient, profile: string, until: Promise<unknown>, ctx: CliContext, options: FollowOptions = {}): Promise<void> {
  let settled = false;
  until.then(
    () => (settled = true),
    () => (settled = true),
  );
  const tty = options.tty ?? isTerminal(2);
  const pollMs = options.pollMs ?? (tty ? 200 : 500);
  const shown = new Set<string>();
  let progress: ProgressDisplay | undefined;
  while (!settled) {
    const running = await client.runtimes.installs({ profile, state: "running" }).catch(() => []);
    const task = running[0];
    if (task) {
      if (!shown.has(task.id)) {
        progress?.finish();
        shown.add(task.id);
        ctx.io.err(announce(task));
        progress = display(ctx, tty);
      }
      progress!.update(task.bytesDone, task.bytesTotal);
    }
    await pauseUnless(pollMs, until);
  }
  progress?.finish();
}
