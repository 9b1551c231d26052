import type { CAC } from "cac";
import { ApiError } from "@svc/client";
import type { DeploymentRecord, ServiceRecord } from "@svc/contracts";
import { defineGroup } from "../../group";
import type { CliContext } from "../../io";

type Client = ReturnType<CliContext["client"]>;

/** A service's ref, else a deployment's: the change is made on what `ref` names. */
async function onServiceOrDeployment(client: Client, ref: string, service: () => Promise<ServiceRecord>, deployment: () => Promise<DeploymentRecord>): Promise<ServiceRecord | DeploymentRecord> {
  try {
    await client.services.get(ref);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return deployment();
    throw error;
  }
  return service();
}

const served = (record: ServiceRecord | DeploymentRecord) =>
  `${"min" in record ? "Deployment" : "Service"} ${record.name} serves ${record.model}${record.adapters?.length ? ` with ${record.adapters.join(", ")}` : " without adapters"}.`;

function registerAdapterAdd(cli: CAC, ctx: CliContext) {
  cli
    .command("add <ref> <adapter>", "Serve a LoRA adapter of the registry on a running service's (or every replica of a deployment's) model, without a restart")
    .option("--json", "Print the record as JSON")
    .action(async (ref: string, adapter: string, flags: { json?: boolean }) => {
      const client = ctx.client();
      const record = await onServiceOrDeployment(client, String(ref), () => client.services.addAdapter(String(ref), String(adapter)), () => client.deployments.addAdapter(String(ref), String(adapter)));
      ctx.emit(record, Boolean(flags.json), () => `${served(record)} ${adapter} is a model of /v1 now.`);
    });
}

function registerAdapterRm(cli: CAC, ctx: CliContext) {
  cli
    .command("rm <ref> <adapter>", "Stop serving a LoRA adapter on a service (or every replica of a deployment), at once while it runs")
    .option("--json", "Print the record as JSON")
    .action(async (ref: string, adapter: string, flags: { json?: boolean }) => {
      const client = ctx.client();
      const record = await onServiceOrDeployment(client, String(ref), () => client.services.removeAdapter(String(ref), String(adapter)), () => client.deployments.removeAdapter(String(ref), String(adapter)));
      ctx.emit(record, Boolean(flags.json), () => served(record));
    });
}

/** `svc adapter add|rm REF ADAPTER`: LoRA adapters of a running service or deployment (see docs/adapters.md). */
export const adapterGroup = defineGroup<CliContext>({
  name: "adapter",
  description: "LoRA adapters of a running service or deployment, without a restart: add, rm",
  commands: [registerAdapterAdd, registerAdapterRm],
});
