import type { ActivityReport, RunRequestBody, RunResponse, ServiceDetails, ServiceRecord, ServiceStatus } from "@svc/contracts";
import type { SvcClient } from "./client";

/**
 * /api/services: `client.services.run(request)`, `.list()`, `.get(ref)`, `.stop(ref)`,
 * `.restart(ref)`, `.remove(ref)`, `.logs(ref)`. A ref is a service id, a unique prefix of it, or a name.
 */
export class ServicesApi {
  constructor(private readonly client: Pick<SvcClient, "call" | "callStream">) {}

  /** Starts a service (or, with dryRun, only renders its start-up script). */
  run(request: RunRequestBody): Promise<RunResponse> {
    return this.client.call("POST /api/services", { body: request });
  }

  /** Live services; `all` adds stopped, failed and timed-out ones. */
  list(filter: { status?: ServiceStatus; id?: string; all?: boolean } = {}): Promise<ServiceRecord[]> {
    return this.client.call("GET /api/services", { query: { status: filter.status, id: filter.id, all: filter.all || undefined } });
  }

  get(ref: string): Promise<ServiceDetails> {
    return this.client.call("GET /api/services/{ref}", { params: { ref } });
  }

  stop(ref: string): Promise<ServiceRecord> {
    return this.client.call("POST /api/services/{ref}/stop", { params: { ref } });
  }

  /** With onDemand (the gateway, for a request to an on-demand service), a live service is left as it is. */
  restart(ref: string, options: { onDemand?: boolean } = {}): Promise<ServiceRecord> {
    return this.client.call("POST /api/services/{ref}/restart", { params: { ref }, query: { onDemand: options.onDemand || undefined } });
  }

  /** The gateway's report of when it last passed a request to each service (the idle clocks). */
  reportActivity(report: ActivityReport): Promise<{ recorded: number }> {
    return this.client.call("POST /api/services/activity", { body: report });
  }

  /** Deletes the record; `force` stops a live service first. */
  remove(ref: string, options: { force?: boolean } = {}): Promise<ServiceRecord> {
    return this.client.call("DELETE /api/services/{ref}", { params: { ref }, query: { force: options.force || undefined } });
  }

  /** The service's output as a byte stream; with follow it stays open for new output. */
  async logs(ref: string, options: { follow?: boolean; tail?: number } = {}): Promise<ReadableStream<Uint8Array>> {
    const response = await this.client.callStream("GET /api/services/{ref}/logs", { params: { ref }, query: { follow: options.follow || undefined, tail: options.tail } });
    return response.body!;
  }
}
