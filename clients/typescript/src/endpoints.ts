import type { CreateEndpointRequest, OutsideEndpoint } from "@svc/contracts";
import type { SvcClient } from "./client";

/** /api/endpoints: outside OpenAI-compatible servers served through /v1. `client.endpoints.list()`, `.add({name, url, apiKey?, models?})`, `.remove(name)`. */
export class EndpointsApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  list(): Promise<OutsideEndpoint[]> {
    return this.client.call("GET /api/endpoints", {});
  }

  /** The key is sent in the body, stored by the gateway (0600) and never answered again. */
  add(request: CreateEndpointRequest): Promise<OutsideEndpoint> {
    return this.client.call("POST /api/endpoints", { body: request });
  }

  remove(name: string): Promise<OutsideEndpoint> {
    return this.client.call("DELETE /api/endpoints/{name}", { params: { name } });
  }
}
