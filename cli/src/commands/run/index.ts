import type { CAC } from "cac";
import { DEFAULT_PROFILE } from "@svc/contracts";
import type { CliContext } from "../../io";
import { parseRunArgs } from "./parse-run-args";
import { runHelp } from "./help";
import { submitParsed } from "./submitting";
import { formatPolicies } from "../services/policies";
import { engineVersionLine } from "./engine-version-line";

/**
 * `svc run`: parsed by hand (see parse-run-args) because job options, container options and
 * pass-through engine arguments depend on where they stand. Steps and warnings go to stderr,
 * the new service id (or the dry-run script) to stdout.
 */
export const runCommand = {
  name: "run",
  description: "Start an inference service: svc run [job options] <task> MODEL [options]",
  register(root: CAC) {
    root.command("run <task> <model>", this.description).allowUnknownOptions();
  },
  async run(args: string[], ctx: CliContext) {
    const submitted = await submitParsed(ctx, parseRunArgs(args), (parsed) => runHelp(parsed.task), (client, request) => client.services.run(request));
    if (!submitted) return;
    const { request, result } = submitted;
    const profile = result.service?.profile ?? request.profile ?? DEFAULT_PROFILE;
    ctx.io.err(`Found ${result.matched} registered revision${result.matched === 1 ? "" : "s"} of ${request.model} for profile ${profile}.`);
    for (const warning of result.warnings) ctx.io.err(`warning: ${warning}`);
    if (result.placement) {
      ctx.io.err(`Plan: ${result.placement.summary}`);
      const reasons = result.placement.reasons.filter((reason) => !result.warnings.includes(reason));
      if (reasons.length > 0) ctx.io.err(`  ${reasons.join(" ")}`);
    }
    if (result.engineVersion) ctx.io.err(engineVersionLine(result.engineVersion));
    if (request.dryRun) {
      if (result.policies) ctx.io.err(`Policies: ${formatPolicies(result.policies)}`);
      ctx.io.err("Dry run: this is the start-up script; nothing was started.");
      ctx.io.out(result.script);
      return;
    }
    const deployment = result.deployment;
    if (deployment) {
      const started = deployment.min === 0 ? "none runs until the first request" : `${deployment.min} starting`;
      ctx.io.err(
        `Requested deployment ${deployment.name} of ${request.model}@${result.revision.slice(0, 12)}: ${deployment.min}..${deployment.max} replicas (${started}), ` +
          `${deployment.routing} routing, target ${deployment.targetInflight} in flight per replica; 'svc details ${deployment.name}' shows its replicas and events.`,
      );
      ctx.io.out(deployment.id);
      return;
    }
    ctx.io.err(`Requested the deployment of ${request.model}@${result.revision.slice(0, 12)} as ${result.service!.name}; 'svc ls' shows its status.`);
    ctx.io.out(result.service!.id);
  },
};
