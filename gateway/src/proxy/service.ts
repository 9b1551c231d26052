import { ApiError, type SvcClient } from "@svc/client";
import { INTERNAL_SECRET_HEADER, type ServiceRecord } from "@svc/contracts";
import { secretsEqual } from "@svc/platform";
import { bearerToken } from "../auth/service";
import { relay } from "../forward/relay";
import { whenBodyEnds } from "../forward/body-end";
import { holdOpen, holdOpenIfSlow, type LazyHold, type TimeoutControl } from "../guard/hold-open";
import type { ActivityRecorder } from "../activity";
import { NotServing, OnDemandStarts } from "../on-demand/ensure-serving";
import { asksForStream, waitingStream } from "../on-demand/wait-stream";
import { splitProxyPath } from "./paths";
import { proxyError } from "./proxy-error";
import { requestUrl } from "../guard/request-url";

/** How long a looked-up service address is reused, so a burst of requests costs one lookup. */
const LOOKUP_TTL_MS = 1000;
/** While orchestrator-svc is not answering (e.g. restarting), a record looked up this recently still routes: its job keeps serving. */
const STALE_IF_DOWN_MS = 60_000;
/** Bodies up to this size are kept while a request is relayed, so it can be sent again to a service that moved. */
const REPLAY_BODY_LIMIT = 1 << 20;
/** How long a request whose service did not answer waits for its new address (the reconciler records one within a tick or two). */
const MOVE_WAIT_MS = 10_000;
const MOVE_POLL_MS = 250;
const hasNoBody = (request: Request) => request.method === "GET" || request.method === "HEAD";
/** Headers that carry the gateway's own credentials; the caller's Authorization (the service's API key) goes through. */
const GATEWAY_CREDENTIALS = ["cookie", "x-svc-token", INTERNAL_SECRET_HEADER];
/** …and Authorization too when it carries the gateway token itself. */
const GATEWAY_CREDENTIALS_AND_TOKEN = [...GATEWAY_CREDENTIALS, "authorization"];
/**
 * A service's answers are served on the UI's origin: as a sandboxed document (no scripts, an
 * opaque origin) and without cookies, so a service cannot act as the UI or set its cookies.
 */
const CONFINED_RESPONSE = { "content-security-policy": "sandbox", "x-content-type-options": "nosniff" };
/** …when the connection closes after it (see holdOpenIfSlow). */
const CONFINED_CLOSING = { ...CONFINED_RESPONSE, connection: "close" };
/** A service's cookies stay with it. */
const SERVICE_ONLY_RESPONSE_HEADERS = ["set-cookie"];

/** Where requests in flight per service are counted (the /v1 balancer's counts, which the scaler and idle stops read). */
export interface RequestCounter {
  /** A request starts on the service; the function returned is called once, when it is over. */
  begin(serviceId: string, name?: string): () => void;
}

/**
 * One stable URL for every service: /proxy/<id>/… reaches the service wherever it runs. Each
 * request counts as in flight on its service until its answer's body is over, as through /v1: a
 * replica is not drained, nor a service idle-stopped, under a long stream.
 */
export class ServiceProxy {
  private readonly cache = new Map<string, { record: ServiceRecord; until: number }>();
  private readonly lookups = new Map<string, Promise<ServiceRecord>>();

  constructor(
    private readonly client: SvcClient,
    /** The gateway token, when debug is off: a bearer equal to it authenticated the caller here and is not passed on. */
    private readonly gatewayToken: string | undefined,
    private readonly activity: Pick<ActivityRecorder, "touch">,
    private readonly starts: OnDemandStarts,
    private readonly inFlight?: RequestCounter,
  ) {}

  /** `answer()`, counted in flight on `record` from now until its body is over; its end is activity too (the idle clock starts then). */
  private async counted(record: ServiceRecord, answer: () => Promise<Response>): Promise<Response> {
    const done = this.inFlight?.begin(record.id, record.name);
    const over = () => {
      done?.();
      this.activity.touch(record.id);
    };
    try {
      return whenBodyEnds(await answer(), over);
    } catch (error) {
      over();
      throw error;
    }
  }

  /** The record looked up for `ref` within LOOKUP_TTL_MS, if any. */
  private fresh(ref: string): ServiceRecord | undefined {
    const cached = this.cache.get(ref);
    return cached && cached.until > Date.now() ? cached.record : undefined;
  }

  /** The record for `ref`: cached, or looked up once for all the requests that need it at the same moment. */
  private lookup(ref: string): Promise<ServiceRecord> {
    const cached = this.fresh(ref);
    if (cached) return Promise.resolve(cached);
    let pending = this.lookups.get(ref);
    if (!pending) {
      pending = this.client.services
        .get(ref)
        .then((record) => {
          this.cache.set(ref, { record, until: Date.now() + LOOKUP_TTL_MS });
          return record;
        })
        .finally(() => this.lookups.delete(ref));
      this.lookups.set(ref, pending);
    }
    return pending;
  }

  async handle(request: Request, server?: TimeoutControl): Promise<Response> {
    const parts = splitProxyPath(requestUrl(request));
    if (!parts) return proxyError(404, "not_found", "Give the service: /proxy/<service id>/<path>, e.g. /proxy/<id>/v1/chat/completions.");
    const drop = this.gatewayToken && secretsEqual(bearerToken(request.headers.get("authorization")), this.gatewayToken) ? GATEWAY_CREDENTIALS_AND_TOKEN : GATEWAY_CREDENTIALS;
    const found = this.fresh(parts.ref) ?? (await this.find(parts.ref));
    if (found instanceof Response) return found;
    if (found.status !== "HEALTHY" || !found.url) {
      if (OnDemandStarts.shouldWait(found)) return this.waitThenRelay(request, server, found, parts, drop);
      return this.notReady(found);
    }
    const hold = holdOpenIfSlow(request, server);
    this.activity.touch(found.id);
    return hold.settle(await this.counted(found, () => this.relayTo(request, found, parts, drop, hold)));
  }

  /** Sends the request to the HEALTHY service `found`, or where it moved meanwhile; the answer, or the error to give. */
  private async relayTo(request: Request, found: ServiceRecord, parts: { ref: string; rest: string }, drop: string[], hold: LazyHold): Promise<Response> {
    // A small body is kept, so the request can be sent again if the service's address moved under it.
    const replayable = hasNoBody(request) || Number(request.headers.get("content-length") ?? Number.NaN) <= REPLAY_BODY_LIMIT;
    const body = replayable && !hasNoBody(request) ? await request.arrayBuffer() : undefined;
    const options = {
      drop,
      body,
      dropFromResponse: SERVICE_ONLY_RESPONSE_HEADERS,
      setOnResponse: (upstream: Response) => (hold.answered(upstream).connection ? CONFINED_CLOSING : CONFINED_RESPONSE),
    };
    const send = (url: string) => relay(request, `${url}${parts.rest}`, options);
    try {
      return await send(found.url!);
    } catch {
      return this.sendElsewhere(request, parts, found.url!, replayable, send);
    }
  }

  /** After the service did not answer at `failed`: once more where it moved, else the error to give. */
  private async sendElsewhere(request: Request, parts: { ref: string; rest: string }, failed: string, replayable: boolean, send: (url: string) => Promise<Response>): Promise<Response> {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    this.cache.delete(parts.ref);
    // A renewal's handover or a restart of orchestrator-svc (new tunnels) moves a HEALTHY service: follow it once.
    const moved = replayable ? await this.movedFrom(parts.ref, failed, request.signal) : undefined;
    if (moved) {
      try {
        return await send(moved.url!);
      } catch {
        if (request.signal.aborted) return new Response(null, { status: 499 });
      }
    }
    // The cached address may be stale (the service stopped meanwhile): say what it is now.
    const now = await this.ready(parts.ref);
    if (now instanceof Response) return now;
    return proxyError(502, "service_unreachable", `Service ${now.id} did not answer at ${now.url}; 'svc details ${now.id.slice(0, 13)}' shows its state.`);
  }

  /** The service's record once it is HEALTHY at another address than `failed`; undefined when it stops being HEALTHY or MOVE_WAIT_MS passes. */
  private async movedFrom(ref: string, failed: string, signal: AbortSignal): Promise<ServiceRecord | undefined> {
    const deadline = Date.now() + MOVE_WAIT_MS;
    while (Date.now() < deadline && !signal.aborted) {
      const record = await this.client.services.get(ref).catch(() => undefined);
      if (record && record.status !== "HEALTHY") return undefined;
      if (record?.url && record.url !== failed) {
        this.cache.set(ref, { record, until: Date.now() + LOOKUP_TTL_MS });
        return record;
      }
      await Bun.sleep(MOVE_POLL_MS);
    }
    return undefined;
  }

  /**
   * A request for a service that is not serving but will (--on-demand, or a renewal's successor on
   * its way): it waits for ensureServing, a streamed one receiving keep-alive comments meanwhile.
   */
  private async waitThenRelay(request: Request, server: TimeoutControl, record: ServiceRecord, parts: { ref: string; rest: string }, drop: string[]): Promise<Response> {
    // It counts from now: the scaler sees a request queued at a stopped replica.
    return this.counted(record, () => this.waitThenAnswer(request, server, record, parts, drop));
  }

  private async waitThenAnswer(request: Request, server: TimeoutControl, record: ServiceRecord, parts: { ref: string; rest: string }, drop: string[]): Promise<Response> {
    const closing = holdOpen(request, server);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    this.activity.touch(record.id);
    const ready = this.starts.ensureServing(record, { signal: request.signal }).then((serving) => {
      this.cache.delete(parts.ref);
      this.activity.touch(serving.id);
      return serving;
    });
    const answer = (serving: ServiceRecord) => relay(request, `${serving.url}${parts.rest}`, { drop, body, dropFromResponse: SERVICE_ONLY_RESPONSE_HEADERS, setOnResponse: { ...CONFINED_RESPONSE, ...closing } });
    if (asksForStream(body)) return waitingStream(ready, answer, { ...CONFINED_RESPONSE, ...closing });
    try {
      return await answer(await ready);
    } catch (error) {
      if (request.signal.aborted) return new Response(null, { status: 499 });
      if (error instanceof NotServing) return proxyError(503, error.code, error.message, { "retry-after": String(error.retryAfterSeconds) });
      if (error instanceof ApiError) return proxyError(error.status, error.code, error.message);
      return proxyError(502, "service_unreachable", `Service ${record.id} did not answer once started: ${(error as Error).message}`);
    }
  }

  private notReady(record: ServiceRecord): Response {
    return proxyError(503, "service_not_ready", `Service ${record.id} is ${record.status}${record.reason ? ` (${record.reason.split("\n")[0]})` : ""}; it answers once it is HEALTHY.`, { "retry-after": "2" });
  }

  /** The service's record, whatever its state, or the error response to give. */
  private async find(ref: string): Promise<ServiceRecord | Response> {
    try {
      return await this.lookup(ref);
    } catch (error) {
      if (error instanceof ApiError) return proxyError(error.status, error.code, error.message);
      const stale = this.cache.get(ref);
      if (stale && Date.now() - stale.until < STALE_IF_DOWN_MS) return stale.record;
      return proxyError(503, "service_unavailable", "orchestrator-svc is not answering; try again in a few seconds.");
    }
  }

  /** The service's record when it is HEALTHY, else the error response to give. */
  private async ready(ref: string): Promise<ServiceRecord | Response> {
    const record = await this.find(ref);
    if (record instanceof Response) return record;
    return record.status !== "HEALTHY" || !record.url ? this.notReady(record) : record;
  }
}
