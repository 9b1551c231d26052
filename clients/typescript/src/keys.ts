import type { ApiKey, CreatedKey, CreateKeyRequest, UpdateKeyRequest, UsageQuery, UsageReport } from "@svc/contracts";
import type { SvcClient } from "./client";

/**
 * /api/keys: API keys for /v1. `client.keys.list()`, `.create({name, models?, expires?, requestsPerMinute?, …, tier?, weight?})`
 * (the key is in the answer, once), `.update(idOrName, {tokensPerMinute: 20000, monthlyTokens: null})`, `.remove(idOrName)`.
 */
export class KeysApi {
  constructor(private readonly client: Pick<SvcClient, "call">) {}

  list(): Promise<ApiKey[]> {
    return this.client.call("GET /api/keys", {});
  }

  create(request: CreateKeyRequest): Promise<CreatedKey> {
    return this.client.call("POST /api/keys", { body: request });
  }

  /** Changes what is given (a limit given as null is removed); the key itself stays the same. */
  update(ref: string, request: UpdateKeyRequest): Promise<ApiKey> {
    return this.client.call("PATCH /api/keys/{ref}", { params: { ref }, body: request });
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
