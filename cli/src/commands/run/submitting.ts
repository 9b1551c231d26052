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

/**
 * What `svc run` and `svc batch run` do with their parsed arguments before their own words: print the
 * help it asked for, or send the launch (showing its steps) and print the answer as JSON with --json.
 * The request and the answer, or undefined when all there was to print is printed.
 */
export async function submitParsed<Help extends { help: true }, Request extends { dryRun?: boolean; profile?: string }, Response>(
  ctx: CliContext,
  parsed: Help | { help: false; request: Request; json: boolean },
  help: (parsed: Help) => string,
  send: (client: SvcClient, request: Request) => Promise<Response>,
): Promise<{ request: Request; result: Response } | undefined> {
  if (parsed.help) {
    ctx.io.out(help(parsed));
    return undefined;
  }
  const { request, json } = parsed;
  const client = ctx.client();
  const result = await submitShowingSteps(client, request, send(client, request), ctx);
  if (!json) return { request, result };
  ctx.io.out(JSON.stringify(result, null, 2));
  return undefined;
}
