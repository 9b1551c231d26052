import { ApiError, type SvcClient } from "@svc/client";
import { INTERNAL_SECRET_HEADER, type ServiceRecord } from "@svc/contracts";
import { secretsEqual } from "@svc/platform";
import { bearerToken } from "../auth/service";
import { relay } from "../forward/relay";
import { holdOpen, type TimeoutControl } from "../guard/hold-open";
import { splitProxyPath } from "./paths";
import { proxyError } from "./proxy-error";

/** How long a looked-up service address is reused, so a burst of requests costs one lookup. */
const LOOKUP_TTL_MS = 1000;
/** Headers that carry the gateway's own credentials; the caller's Authorization (the service's API key) goes through. */
const GATEWAY_CREDENTIALS = ["cookie", "x-svc-token", INTERNAL_SECRET_HEADER];
/**
 * A service's answers are served on the UI's origin: as a sandboxed document (no scripts, an
 * opaque origin) and without cookies, so a service cannot act as the UI or set its cookies.
 */
const CONFINED_RESPONSE = { "content-security-policy": "sandbox", "x-content-type-options": "nosniff" };

/** One stable URL for every service: /proxy/<id>/… reaches the service wherever it runs. */
export class ServiceProxy {
  private readonly cache = new Map<string, { record: ServiceRecord; until: number }>();

  constructor(
    private readonly client: SvcClient,
    /** The gateway token, when debug is off: a bearer equal to it authenticated the caller here and is not passed on. */
    private readonly gatewayToken: string | undefined,
  ) {}

  private async lookup(ref: string): Promise<ServiceRecord> {
    const cached = this.cache.get(ref);
    if (cached && cached.until > Date.now()) return cached.record;
    const record = await this.client.services.get(ref);
    this.cache.set(ref, { record, until: Date.now() + LOOKUP_TTL_MS });
    return record;
  }

  async handle(request: Request, server?: TimeoutControl): Promise<Response> {
    const parts = splitProxyPath(new URL(request.url));
    if (!parts) return proxyError(404, "not_found", "Give the service: /proxy/<service id>/<path>, e.g. /proxy/<id>/v1/chat/completions.");
    const found = await this.ready(parts.ref);
    if (found instanceof Response) return found;
    const drop = [...GATEWAY_CREDENTIALS];
    if (this.gatewayToken && secretsEqual(bearerToken(request.headers.get("authorization")), this.gatewayToken)) drop.push("authorization");
    const closing = holdOpen(request, server);
    try {
      return await relay(request, `${found.url}${parts.rest}`, { drop, dropFromResponse: ["set-cookie"], setOnResponse: { ...CONFINED_RESPONSE, ...closing } });
    } catch {
      if (request.signal.aborted) return new Response(null, { status: 499 });
      // The cached address may be stale (the service stopped meanwhile): say what it is now.
      this.cache.delete(parts.ref);
      const now = await this.ready(parts.ref);
      if (now instanceof Response) return now;
      return proxyError(502, "service_unreachable", `Service ${now.id} did not answer at ${now.url}; 'svc details ${now.id.slice(0, 13)}' shows its state.`);
    }
  }

  /** The service's record when it is HEALTHY, else the error response to give. */
  private async ready(ref: string): Promise<ServiceRecord | Response> {
    let record: ServiceRecord;
    try {
      record = await this.lookup(ref);
    } catch (error) {
      if (error instanceof ApiError) return proxyError(error.status, error.code, error.message);
      return proxyError(503, "service_unavailable", "orchestrator-svc is not answering; try again in a few seconds.");
    }
    if (record.status !== "HEALTHY" || !record.url) {
      return proxyError(503, "service_not_ready", `Service ${record.id} is ${record.status}${record.reason ? ` (${record.reason.split("\n")[0]})` : ""}; it answers once it is HEALTHY.`, { "retry-after": "2" });
    }
    return record;
  }
}
