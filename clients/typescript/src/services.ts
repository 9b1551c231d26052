import { type ActivityReport, type ServiceRecord, NEXT_CURSOR_HEADER } from "@svc/contracts";
import type { SvcClient } from "./client";
import type { ServiceListQuery } from "./operations";
import { WorkloadsApi } from "./workloads";


/**
 * /api/services: `client.services.run(request)`, `.list()`, `.get(ref)`, `.stop(ref)`,
 * `.restart(ref)`, `.remove(ref)`, `.logs(ref)`. A ref is a service id, a unique prefix of it, or a name.
 */
export class ServicesApi extends WorkloadsApi<"/api/services"> {
  constructor(protected override readonly client: Pick<SvcClient, "call" | "callStream">) {
    super(client, "/api/services");
  }

  /**
   * Live services and those that ended in the last 24 hours (live first); `all`: the whole history.
   * One page of `limit` (default 100): `page()` also says where the next one starts.
   */
  async list(filter: ServiceListQuery = {}): Promise<ServiceRecord[]> {
    return (await this.page(filter)).services;
  }

  /** One page of the list, and the cursor of the next page when more services follow. */
  async page(filter: ServiceListQuery = {}): Promise<{ services: ServiceRecord[]; nextCursor?: string }> {
    const response = await this.client.callStream("GET /api/services", {
      query: { status: filter.status, id: filter.id, all: filter.all || undefined, limit: filter.limit, cursor: filter.cursor },
    });
    const services = (await response.json()) as ServiceRecord[];
    const nextCursor = response.headers.get(NEXT_CURSOR_HEADER) ?? undefined;
    return { services, ...(nextCursor ? { nextCursor } : {}) };
  }

  /** With onDemand (the gateway, for a request to an on-demand service), a live service is left as it is. */
  restart(ref: string, options: { onDemand?: boolean } = {}): Promise<ServiceRecord> {
    return this.client.call("POST /api/services/{ref}/restart", { params: { ref }, query: { onDemand: options.onDemand || undefined } });
  }

  /** Serves one more LoRA adapter (a repo id of the registry) on a running service, without a restart. */
  addAdapter(ref: string, adapter: string): Promise<ServiceRecord> {
    return this.client.call("POST /api/services/{ref}/adapters", { params: { ref }, body: { adapter } });
  }

  /** Stops serving a LoRA adapter (at once while the service runs). */
  removeAdapter(ref: string, adapter: string): Promise<ServiceRecord> {
    return this.client.call("DELETE /api/services/{ref}/adapters", { params: { ref }, query: { adapter } });
  }

  /** The gateway's report of when it last passed a request to each service (the idle clocks). */
  reportActivity(report: ActivityReport): Promise<{ recorded: number }> {
    return this.client.call("POST /api/services/activity", { body: report });
  }

  /** The service's output as a byte stream; with follow it stays open for new output. */
  async logs(ref: string, options: { follow?: boolean; tail?: number } = {}): Promise<ReadableStream<Uint8Array>> {
    const response = await this.client.callStream("GET /api/services/{ref}/logs", { params: { ref }, query: { follow: options.follow || undefined, tail: options.tail } });
    return response.body!;
  }
}
