import type { ApiKey, CreatedKey, CreateKeyRequest, UsageQuery, UsageReport } from "@svc/contracts";
import type { SvcClient } from "./client";

/** /api/keys: API keys for /v1. `client.keys.list()`, `.create({name, models?, expires?})` (the key is in the answer, once), `.remove(idOrName)`. */
export class KeysApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  list(): Promise<ApiKey[]> {
    return this.client.call("GET /api/keys", {});
  }

  create(request: CreateKeyRequest): Promise<CreatedKey> {
    return this.client.call("POST /api/keys", { body: request });
  }

  remove(ref: string): Promise<ApiKey> {
    return this.client.call("DELETE /api/keys/{ref}", { params: { ref } });
  }
}

/** /api/usage: what /v1 served per key, model or service, per day. */
export class UsageApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  report(query: UsageQuery = {}): Promise<UsageReport> {
    return this.client.call("GET /api/usage", { query });
  }
}
