import { DEFAULT_PROFILE } from "@svc/contracts";
import type { SvcClient } from "@svc/client";
import type { CliContext } from "../../io";
import { showingImageBuilds } from "../image/follow-builds";
import { showInstallsWhile } from "../runtime/follow-install";

/**
 * Sends a launch (`svc run`, `svc batch run`) and, while it is on its way, shows what it does first:
 * a missing runtime image is built, a slurm cluster without the svc runtime gets it installed.
 * A dry run only waits for its answer.
 */
export async function submitShowingSteps<T>(client: SvcClient, request: { dryRun?: boolean; profile?: string }, running: Promise<T>, ctx: CliContext): Promise<T> {
  if (request.dryRun) return running;
  const installs = showInstallsWhile(client, request.profile ?? DEFAULT_PROFILE, running, ctx);
  const result = await showingImageBuilds(client, ctx.io.err, running);
  await installs;
  return result;
}
