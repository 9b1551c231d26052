import { REQUEST_ENDS_PATH, REQUEST_ID_HEADER, type RequestEndKind, type RequestEndsPage, type ServiceRoute } from "@svc/contracts";
import type { TokenUsage } from "./usage-tap";

/** Told how a stream ended at its service, and its tokens where it was written to its end. */
export type StreamEnded = (end: RequestEndKind, usage: TokenUsage | null) => void;

export interface RequestEndsOptions {
  /** How long one poll waits at the service for a record. */
  waitMs?: number;
  /** Whether requests wait for a slot on the service (by id): its ends are then read at once, without `gapMs`, so the slot goes to the next without delay. */
  hurry?: (serviceId: string) => boolean;
  /** How long a service's records may stay out of reach before what is in flight there is taken as ended ("error"). */
  giveUpMs?: number;
  /** The wait between two failed polls. */
  retryMs?: number;
  /** The wait after a poll that brought records, before the next: under load one poll then brings many, each poll costing about what a proxied request does. */
  gapMs?: number;
  /** How long a service is known here after its last stream: one not streamed to for this long (stopped, or moved to another address) is forgotten, and asked again should it come back. */
  forgetAfterMs?: number;
  /** How long a service whose records were out of reach is left alone (its streams read on their way) before it is asked again. */
  askAgainMs?: number;
}

/** A name for one request, sent in REQUEST_ID_HEADER: `forget` it when no stream came of the request. */
export interface WatchedRequest {
  id: string;
  header: Record<string, string>;
  forget(): void;
}

/** One service's records, as far as they were read. */
interface ServiceEnds {
  id: string;
  url: string;
  apiKey: string | null;
  /** unknown: not asked yet (or out of reach: asked again from `askAt`); probing: asked; ready: its records are read; unsupported: it keeps none (an older runtime). */
  state: "unknown" | "probing" | "ready" | "unsupported";
  askAt: number;
  instance: string | undefined;
  last: number;
  pending: Map<string, StreamEnded>;
  polling: boolean;
  /** When a stream was last sent to it. */
  usedAt: number;
}

/**
 * Where streams from svc's own runtimes end, learned from the runtimes' records (REQUEST_ENDS_PATH)
 * instead of reading each stream on its way, so a stream passes through the gateway untouched. A
 * service is asked once whether it keeps them; while requests named here are in flight there, one
 * long poll at a time reads their ends. A service that started again, or whose records stay out of
 * reach for `giveUpMs`, ends what was in flight there as an error.
 */
export class RequestEndWatch {
  private readonly services = new Map<string, ServiceEnds>();
  private readonly waitMs: number;
  private readonly giveUpMs: number;
  private readonly retryMs: number;
  private readonly askAgainMs: number;
  private readonly gapMs: number;
  private readonly forgetAfterMs: number;
  private readonly hurry: (serviceId: string) => boolean;

  constructor(options: RequestEndsOptions = {}) {
    this.waitMs = options.waitMs ?? 20_000;
    this.giveUpMs = options.giveUpMs ?? 10_000;
    this.retryMs = options.retryMs ?? 250;
    this.askAgainMs = options.askAgainMs ?? 5000;
    this.gapMs = options.gapMs ?? 50;
    this.forgetAfterMs = options.forgetAfterMs ?? 10 * 60_000;
    this.hurry = options.hurry ?? (() => false);
  }

  /**
   * A name for a streamed request to `service` whose end `ended` hears, where the service keeps
   * records of them; else undefined (then the stream is read on its way), and the service is asked
   * whether it does, for the requests after this one.
   */
  watch(service: ServiceRoute, ended: StreamEnded): WatchedRequest | undefined {
    if (service.server !== "svc" || service.outside || !service.url) return undefined;
    const key = `${service.id} ${service.url}`;
    const now = Date.now();
    let ends = this.services.get(key);
    if (!ends) {
      // A new address is when the map grows: those not streamed to for a while go then.
      this.forgetUnused(now);
      ends = { id: service.id, url: service.url, apiKey: service.apiKey, state: "unknown", askAt: 0, instance: undefined, last: 0, pending: new Map(), polling: false, usedAt: now };
      this.services.set(key, ends);
    }
    ends.usedAt = now;
    if (ends.state === "unknown" && now >= ends.askAt) void this.probe(ends);
    if (ends.state !== "ready") return undefined;
    const id = crypto.randomUUID();
    const watched = ends;
    watched.pending.set(id, ended);
    void this.poll(watched);
    return { id, header: { [REQUEST_ID_HEADER]: id }, forget: () => void watched.pending.delete(id) };
  }

  /** Forgets the services with nothing in flight, not being asked, and no stream for forgetAfterMs. */
  private forgetUnused(now: number): void {
    for (const [key, ends] of this.services) {
      if (ends.pending.size === 0 && !ends.polling && ends.state !== "probing" && now - ends.usedAt >= this.forgetAfterMs) this.services.delete(key);
    }
  }

  private async read(ends: ServiceEnds, query: string, timeoutMs: number): Promise<Response> {
    return fetch(`${ends.url}${REQUEST_ENDS_PATH}${query}`, {
      headers: ends.apiKey ? { authorization: `Bearer ${ends.apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  private async probe(ends: ServiceEnds): Promise<void> {
    ends.state = "probing";
    try {
      const response = await this.read(ends, "", 5000);
      if (response.status >= 500) throw new Error(`status ${response.status}`);
      const page = response.ok ? ((await response.json().catch(() => null)) as RequestEndsPage | null) : null;
      if (!page || typeof page.instance !== "string" || typeof page.last !== "number") {
        ends.state = "unsupported";
        return;
      }
      ends.instance = page.instance;
      ends.last = page.last;
      ends.state = "ready";
    } catch {
      ends.state = "unknown";
      ends.askAt = Date.now() + this.askAgainMs;
    }
  }

  private async poll(ends: ServiceEnds): Promise<void> {
    if (ends.polling) return;
    ends.polling = true;
    let failingSince: number | undefined;
    try {
      while (ends.pending.size > 0) {
        let page: RequestEndsPage;
        try {
          const response = await this.read(ends, `?after=${ends.last}&wait_ms=${this.waitMs}`, this.waitMs + 10_000);
          if (!response.ok) throw new Error(`status ${response.status}`);
          page = (await response.json()) as RequestEndsPage;
          failingSince = undefined;
        } catch {
          failingSince ??= Date.now();
          if (Date.now() - failingSince >= this.giveUpMs) {
            endAll(ends);
            ends.state = "unknown";
            ends.askAt = Date.now() + this.askAgainMs;
            return;
          }
          await Bun.sleep(this.retryMs);
          continue;
        }
        if (page.instance !== ends.instance || page.lost) {
          // It started again (what was in flight there went with it), or dropped records not read yet.
          endAll(ends);
          ends.instance = page.instance;
          ends.last = page.last;
          continue;
        }
        for (const end of page.ends) {
          const ended = ends.pending.get(end.id);
          if (!ended) continue;
          ends.pending.delete(end.id);
          ended(end.end, end.usage);
        }
        ends.last = page.last;
        if (page.ends.length > 0 && ends.pending.size > 0 && !this.hurry(ends.id)) await Bun.sleep(this.gapMs);
      }
    } finally {
      ends.polling = false;
    }
  }
}

function endAll(ends: ServiceEnds): void {
  const pending = [...ends.pending.values()];
  ends.pending.clear();
  for (const ended of pending) ended("error", null);
}
