import type { DeploymentDetails, DeploymentRecord, ScaleRequest } from "@svc/contracts";
import type { SvcClient } from "./client";

/**
 * /api/deployments: replica sets made by `services.run({..., scaling: {replicas: "0..3"}})`.
 * `client.deployments.list()`, `.get(ref)` (replicas and scaling events), `.scale(ref, {replicas: "1..4"})`,
 * `.stop(ref)` (every replica drained and stopped; scaling off until scaled again), `.remove(ref)`.
 * A ref is a deployment id, a unique prefix of it, or its name.
 */
export class DeploymentsApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  /** Active deployments and those stopped in the last 24 hours; `all`: every one. */
  list(options: { all?: boolean } = {}): Promise<DeploymentRecord[]> {
    return this.client.call("GET /api/deployments", { query: { all: options.all || undefined } });
  }

  get(ref: string): Promise<DeploymentDetails> {
    return this.client.call("GET /api/deployments/{ref}", { params: { ref } });
  }

  /** New bounds (and any other scaling field given); a stopped deployment becomes ACTIVE again. */
  scale(ref: string, request: ScaleRequest): Promise<DeploymentRecord> {
    return this.client.call("PATCH /api/deployments/{ref}", { params: { ref }, body: request });
  }

  /** Serves one more LoRA adapter on every replica, and on those to come, without a restart. */
  addAdapter(ref: string, adapter: string): Promise<DeploymentRecord> {
    return this.client.call("POST /api/deployments/{ref}/adapters", { params: { ref }, body: { adapter } });
  }

  /** Stops serving a LoRA adapter on every replica. */
  removeAdapter(ref: string, adapter: string): Promise<DeploymentRecord> {
    return this.client.call("DELETE /api/deployments/{ref}/adapters", { params: { ref }, query: { adapter } });
  }

  stop(ref: string): Promise<DeploymentRecord> {
    return this.client.call("POST /api/deployments/{ref}/stop", { params: { ref } });
  }

  /** Removes the deployment and its replicas' records; a live one needs `force` (its replicas are stopped first). */
  remove(ref: string, options: { force?: boolean } = {}): Promise<DeploymentRecord> {
    return this.client.call("DELETE /api/deployments/{ref}", { params: { ref }, query: { force: options.force || undefined } });
  }
}
