import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { ApiError, type CreateEndpointRequest, type OutsideEndpoint, type ServiceRoute } from "@svc/contracts";
import type { GatewayDb } from "../db/connection";
import { outsideEndpoints, type OutsideEndpointRow } from "../db/schema";
import { endpointBase, probeEndpoint, type ProbeResult } from "./probe";

/** How often every endpoint's health (and, when not given, its list of models) is checked. */
export const HEALTH_EVERY_MS = 30_000;

interface Health {
  status: OutsideEndpoint["status"];
  reason: string | null;
  checkedAt: string | null;
  /** The models its server listed at the last check that could read them. */
  listed: string[];
}

type Probe = (base: string, apiKey: string | null) => Promise<ProbeResult>;

/**
 * Outside endpoints: OpenAI-compatible servers svc did not launch, whose models /v1 routes to.
 * Rows in the gateway's database; each one's API key in a file of its own under `keysDir` (mode
 * 0600), read into memory and never answered, listed or logged. Health is kept in memory: checked
 * at add, at start and every HEALTH_EVERY_MS.
 */
export class EndpointRegistry {
  private readonly keys = new Map<string, string>();
  private readonly health = new Map<string, Health>();

  constructor(
    private readonly db: GatewayDb,
    private readonly keysDir: string,
    private readonly probe: Probe = probeEndpoint,
    /** Told when the models /v1 routes to may have changed. */
    private readonly changed: () => void = () => {},
  ) {
    mkdirSync(keysDir, { recursive: true, mode: 0o700 });
    for (const row of this.rows()) {
      const file = this.keyFile(row.name);
      if (row.hasKey && existsSync(file)) this.keys.set(row.name, readFileSync(file, "utf8"));
      this.health.set(row.name, { status: "UNHEALTHY", reason: "not checked yet", checkedAt: null, listed: [] });
    }
  }

  private rows(): OutsideEndpointRow[] {
    return this.db.select().from(outsideEndpoints).all();
  }

  private keyFile(name: string) {
    return join(this.keysDir, `${name}.key`);
  }

  list(): OutsideEndpoint[] {
    return this.rows()
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((row) => {
        const health = this.health.get(row.name)!;
        return {
          name: row.name,
          url: row.url,
          models: this.modelsOf(row),
          modelsGiven: row.models !== null,
          hasKey: row.hasKey,
          status: health.status,
          reason: health.reason,
          checkedAt: health.checkedAt,
          createdAt: row.createdAt,
        };
      });
  }

  private modelsOf(row: OutsideEndpointRow): string[] {
    return row.models ? (JSON.parse(row.models) as string[]) : (this.health.get(row.name)?.listed ?? []);
  }

  async add(request: CreateEndpointRequest, now = new Date()): Promise<OutsideEndpoint> {
    const url = endpointBase(request.url);
    if ("problem" in url) throw new ApiError(400, "invalid_request", `url: ${url.problem}.`);
    if (this.health.has(request.name)) throw new ApiError(409, "conflict", `An endpoint named '${request.name}' exists; remove it first (svc endpoint rm ${request.name}) or choose another name.`);
    const apiKey = request.apiKey?.trim() || null;
    if (request.apiKey !== undefined && !apiKey) throw new ApiError(400, "invalid_request", "apiKey is empty: give the server's key, or leave it out for a server without one.");
    const probed = await this.probe(url.base, apiKey);
    if (!request.models) {
      if (!probed.ok) throw new ApiError(400, "endpoint_unreachable", `Could not read the models of ${url.base}: ${probed.reason}. Fix that, or name the models (--models) to register it anyway.`);
      if (probed.models.length === 0) throw new ApiError(400, "invalid_request", `${url.base} lists no models; name them with --models.`);
    }
    if (this.health.has(request.name)) throw new ApiError(409, "conflict", `An endpoint named '${request.name}' exists.`);
    if (apiKey) {
      writeFileSync(this.keyFile(request.name), apiKey, { mode: 0o600 });
      chmodSync(this.keyFile(request.name), 0o600);
      this.keys.set(request.name, apiKey);
    }
    const row: OutsideEndpointRow = {
      name: request.name,
      url: url.base,
      models: request.models ? JSON.stringify([...new Set(request.models)]) : null,
      hasKey: apiKey !== null,
      createdAt: now.toISOString(),
    };
    this.db.insert(outsideEndpoints).values(row).run();
    this.record(row.name, probed, now);
    return this.list().find((endpoint) => endpoint.name === row.name)!;
  }

  /** Removes an endpoint and its key file; its models leave /v1 at once. */
  remove(name: string): OutsideEndpoint {
    const found = this.list().find((endpoint) => endpoint.name === name);
    if (!found) throw new ApiError(404, "not_found", `No outside endpoint is named '${name}'; svc endpoint ls lists them.`);
    this.db.delete(outsideEndpoints).where(eq(outsideEndpoints.name, name)).run();
    rmSync(this.keyFile(name), { force: true });
    this.keys.delete(name);
    this.health.delete(name);
    this.changed();
    return found;
  }

  /** Checks every endpoint once (GET /v1/models with its key), side by side. */
  async checkAll(now = () => new Date()): Promise<void> {
    await Promise.all(
      this.rows().map(async (row) => {
        const probed = await this.probe(row.url, this.keys.get(row.name) ?? null);
        if (this.health.has(row.name)) this.record(row.name, probed, now());
      }),
    );
  }

  private record(name: string, probed: ProbeResult, at: Date) {
    const listed = probed.ok ? probed.models : (this.health.get(name)?.listed ?? []);
    this.health.set(name, { status: probed.ok ? "HEALTHY" : "UNHEALTHY", reason: probed.ok ? null : probed.reason, checkedAt: at.toISOString(), listed });
    this.changed();
  }

  /** Every endpoint's models as /v1 routes them: one route per model, carrying the endpoint's key (in memory only). */
  routes(): ServiceRoute[] {
    return this.rows().flatMap((row) => {
      const health = this.health.get(row.name)!;
      return this.modelsOf(row).map(
        (model): ServiceRoute => ({
          id: `endpoint:${row.name}`,
          name: row.name,
          task: "text-generation",
          model,
          revision: "outside",
          profile: `endpoint ${row.name}`,
          engine: "outside",
          // Its /v1/responses are translated to chat completions, which every OpenAI-compatible server answers.
          server: "svc",
          status: health.status,
          url: row.url,
          apiKey: this.keys.get(row.name) ?? null,
          createdAt: row.createdAt,
          onDemand: false,
          waits: false,
          outside: { endpoint: row.name, reason: health.reason },
        }),
      );
    });
  }
}
