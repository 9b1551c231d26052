import { conflict, isLive } from "@svc/contracts";
import type { DeploymentRow, DeploymentStore } from "../db/deployment-store";
import type { ServiceRow } from "../db/service-store";
import type { AdapterLaunch } from "../launch/adapters";
import { addAdapter, checkedAdapter, removeAdapter, respec, servedOrRefuse, type AdapterChangeDeps, type AdapterTarget } from "../services/adapter-changes";
import { readDeploymentSpec } from "./records";

/**
 * `svc adapter add|rm DEPLOYMENT ADAPTER`: every replica loads (or unloads) the adapter in place,
 * a stopped one serves it from its next start, and the template the scaler makes new replicas from
 * serves it too; one event of the deployment. Refused while a replica is on its way up or down,
 * which would come up with the old set.
 */
export async function changeDeploymentAdapter(
  deps: { store: DeploymentStore; changes: AdapterChangeDeps },
  row: DeploymentRow,
  replicas: ServiceRow[],
  name: string,
  add: boolean,
): Promise<void> {
  const spec = readDeploymentSpec(row);
  const template: AdapterTarget = { ...spec.template, name: `Deployment ${row.name}` };
  const moving = replicas.filter((replica) => isLive(replica.status) && replica.status !== "HEALTHY");
  if (moving.length > 0) {
    throw conflict(`Deployment ${row.name} has replicas on their way up or down (${moving.map((replica) => `${replica.name}: ${replica.status}`).join(", ")}): change its adapters once they are HEALTHY or stopped.`);
  }
  const served = template.spec.launch.adapters ?? [];
  let next: AdapterLaunch[];
  if (add) next = [...served, await checkedAdapter(deps.changes, template, name)];
  else {
    servedOrRefuse(template, name);
    next = served.filter((adapter) => adapter.name !== name);
  }
  for (const replica of replicas) {
    const serves = (JSON.parse(replica.spec) as { adapters?: string[] }).adapters?.includes(name) ?? false;
    if (add && !serves) await addAdapter(deps.changes, replica, name, { replica: true });
    if (!add && serves) await removeAdapter(deps.changes, replica, name, { replica: true });
  }
  const live = replicas.filter((replica) => replica.status === "HEALTHY").length;
  deps.store.update(
    row.id,
    { spec: JSON.stringify({ ...spec, template: { ...spec.template, spec: respec(template, next) } }) },
    { from: live, to: live, message: `LoRA adapter ${name} ${add ? "added: served by every replica" : "removed from every replica"}, without a restart` },
  );
}
