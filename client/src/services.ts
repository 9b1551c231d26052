import type { RunRequest, RunResponse, ServiceDetails, ServiceRecord, ServiceStatus } from "@svc/contracts";
import type { SvcClient } from "./client";

const path = (ref: string) => `/api/services/${encodeURIComponent(ref)}`;

/**
 * /api/services: `client.services.run(request)`, `.list()`, `.get(ref)`, `.stop(ref)`,
 * `.restart(ref)`, `.remove(ref)`, `.logs(ref)`. A ref is a service id, a unique prefix of it, or a name.
 */
export class ServicesApi {
  constructor(private readonly client: Pick<SvcClient, "request" | "stream">) {}

  /** Starts a service (or, with dryRun, only renders its start-up script). */
  run(request: RunRequest): Promise<RunResponse> {
    return this.client.request("POST", "/api/services", { body: request });
  }

  /** Live services; `all` adds stopped, failed and timed-out ones. */
  list(filter: { status?: ServiceStatus; id?: string; all?: boolean } = {}): Promise<ServiceRecord[]> {
    return this.client.request("GET", "/api/services", {
      query: { status: filter.status, id: filter.id, all: filter.all ? "true" : undefined },
    });
  }

  get(ref: string): Promise<ServiceDetails> {
    return this.client.request("GET", path(ref));
  }

  stop(ref: string): Promise<ServiceRecord> {
    return this.client.request("POST", `${path(ref)}/stop`);
  }

  restart(ref: string): Promise<ServiceRecord> {
    return this.client.request("POST", `${path(ref)}/restart`);
  }

  /** Deletes the record; `force` stops a live service first. */
  remove(ref: string, options: { force?: boolean } = {}): Promise<ServiceRecord> {
    return this.client.request("DELETE", path(ref), { query: { force: options.force ? "true" : undefined } });
  }

  /** The service's output as a byte stream; with follow it stays open for new output. */
  async logs(ref: string, options: { follow?: boolean; tail?: number } = {}): Promise<ReadableStream<Uint8Array>> {
    const response = await this.client.stream("GET", `${path(ref)}/logs`, {
      query: { follow: options.follow ? "true" : undefined, tail: options.tail === undefined ? undefined : String(options.tail) },
    });
    return response.body!;
  }
}
