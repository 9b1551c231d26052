import type { CAC } from "cac";
import type { CliContext } from "../../io";
import { replicaCounts } from "./format";
import { SCALING_DESCRIPTIONS, scaleRequestFrom } from "./scaling-options";

/** `svc scale REF MIN..MAX [options]`: new bounds or scaling settings for a deployment; a stopped one becomes ACTIVE again. */
export function registerScale(cli: CAC, ctx: CliContext) {
  cli
    .command("scale <deployment> [replicas]", "Change a deployment's replicas (MIN..MAX or N) or its scaling settings; starts a stopped one again")
    .option("--target-inflight <n>", SCALING_DESCRIPTIONS["--target-inflight"])
    .option("--scale-up-after <duration>", SCALING_DESCRIPTIONS["--scale-up-after"])
    .option("--scale-down-after <duration>", SCALING_DESCRIPTIONS["--scale-down-after"])
    .option("--routing <mode>", SCALING_DESCRIPTIONS["--routing"])
    .option("--json", "Print the deployment as JSON")
    .example("svc scale chat 1..4 --routing prefix")
    .action(async (ref: string, replicas: string | number | undefined, options: Record<string, unknown>) => {
      const request = scaleRequestFrom(replicas === undefined ? undefined : String(replicas), options);
      const d = await ctx.client().deployments.scale(String(ref), request);
      ctx.emit(d, Boolean(options.json), () => `Deployment ${d.name} (${d.id.slice(0, 13)}) is ${d.status}: ${replicaCounts(d)}, target ${d.targetInflight} in flight per replica, ${d.routing} routing.`);
    });
}
