import type { CAC } from "cac";
import type { ServiceRecord } from "@svc/contracts";
import { defineGroup } from "../../group";
import type { CliContext } from "../../io";

const served = (record: ServiceRecord) => `Service ${record.name} serves ${record.model}${record.adapters?.length ? ` with ${record.adapters.join(", ")}` : " without adapters"}.`;

function registerAdapterAdd(cli: CAC, ctx: CliContext) {
  cli
    .command("add <service> <adapter>", "Serve a LoRA adapter of the registry on a running service's model, without a restart")
    .option("--json", "Print the service's record as JSON")
    .action(async (service: string, adapter: string, flags: { json?: boolean }) => {
      const record = await ctx.client().services.addAdapter(String(service), String(adapter));
      ctx.emit(record, Boolean(flags.json), () => `${served(record)} ${adapter} is a model of /v1 now.`);
    });
}

function registerAdapterRm(cli: CAC, ctx: CliContext) {
  cli
    .command("rm <service> <adapter>", "Stop serving a LoRA adapter on a service (at once while it runs)")
    .option("--json", "Print the service's record as JSON")
    .action(async (service: string, adapter: string, flags: { json?: boolean }) => {
      const record = await ctx.client().services.removeAdapter(String(service), String(adapter));
      ctx.emit(record, Boolean(flags.json), () => served(record));
    });
}

/** `svc adapter add|rm SERVICE ADAPTER`: LoRA adapters of a running service (see docs/adapters.md). */
export const adapterGroup = defineGroup<CliContext>({
  name: "adapter",
  description: "LoRA adapters of a running service, without a restart: add, rm",
  commands: [registerAdapterAdd, registerAdapterRm],
});
