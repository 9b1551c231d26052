import { randomInt, randomUUID } from "node:crypto";
import { currentUserName } from "@svc/platform/process";
import { ApiError, conflict, type ActivityReport, DEFAULT_PROFILE, isLive, notFound, type Profile, type RunRequest, type RunResponse, type ServiceDetails, type ServiceRecord, type ServiceStatus } from "@svc/contracts";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import type { Engine, LaunchSpec } from "../engines/engine";
import type { Reconciler } from "../reconciler/reconciler";
import { planLaunch, type PlannerDeps } from "../launch/planner";
import { engineFailure } from "./engine-failure";
import { removeRecord } from "./removal";
import { resolvePolicies } from "../launch/policies";
import { launchOf, policiesOf, readSuccessor, toServiceDetails, toServiceRecord, type StoredSpec } from "./records";
import { decodeCursor, encodeCursor } from "./list-cursor";
import { DEFAULT_LIST_LIMIT } from "./model";

export interface ServicesDeps {
  store: ServiceStore;
  planner: PlannerDeps;
  /** The engine for a profile's services. */
  engineFor(profile: Profile): Engine;
  /** The engine of an existing record. */
  engineOf(row: ServiceRow): Engine;
  reconciler: Pick<Reconciler, "wake" | "submitting">;
}

const NAME_PREFIX = "svc-";
/** `svc ls` without --all shows the services that ended this recently, after the live ones. */
export const RECENTLY_ENDED_MS = 24 * 3600 * 1000;


/** svc run / ls / details / stop / restart / rm / logs, over the records and the engines. */
export class ServicesService {
  constructor(private readonly deps: ServicesDeps) {}

  async run(request: RunRequest): Promise<RunResponse> {
    const { store } = this.deps;
    const plan = await planLaunch(request, this.deps.planner, DEFAULT_PROFILE);
    if (request.name && store.liveWithName(request.name).length > 0) {
      throw conflict(`A running service is already named ${request.name}: choose another --name, or stop that one first.`);
    }
    const policies = resolvePolicies(request, plan.profile, plan.capabilities);
    const engine = this.deps.engineFor(plan.profile);
    const id = randomUUID();
    const name = request.name ?? this.defaultName();
    const spec: LaunchSpec = {
      serviceId: id,
      name,
      task: request.task,
      image: plan.image,
      args: plan.args,
      apiKey: request.apiKey,
      modelDir: plan.model.modelDir,
      inputDir: plan.inputDir,
      job: plan.job,
      mounts: plan.mounts,
      ...(request.gracePeriod !== undefined ? { gracePeriod: request.gracePeriod } : {}),
    };
    const script = await engine.render(spec).catch((error) => {
      throw engineFailure(error, `${engine.kind} cannot run this service`);
    });
    const base = { matched: plan.matched, revision: plan.model.revision, warnings: plan.warnings, script, policies: policiesOf(policies) };
    if (request.dryRun) return { ...base, service: null };

    const now = new Date().toISOString();
    const stored: StoredSpec = {
      job: spec.job,
      textGeneration: request.textGeneration,
      speechRecognition: request.speechRecognition,
      engineArgs: request.engineArgs ?? [],
      ...(request.mounts?.length ? { mounts: request.mounts } : {}),
      ...(request.gracePeriod !== undefined ? { gracePeriod: request.gracePeriod } : {}),
      ...(request.image !== undefined ? { image: request.image } : {}),
      launch: { image: spec.image, args: spec.args, modelDir: spec.modelDir, inputDir: spec.inputDir, mounts: spec.mounts },
    };
    store.insert(
      {
        id,
        name,
        task: request.task,
        model: request.model,
        revision: plan.model.revision,
        profile: plan.profile.name,
        status: "SUBMITTED",
        reason: null,
        host: null,
        port: null,
        engine: engine.kind,
        runtime: plan.image,
        handle: null,
        apiKey: request.apiKey ?? null,
        spec: JSON.stringify(stored),
        ...policies,
        createdBy: currentUserName(),
        createdAt: now,
        updatedAt: now,
      },
      `submitted to ${engine.kind}`,
    );
    const notes = await this.submit(engine, spec);
    return { ...base, warnings: [...base.warnings, ...notes], service: toServiceRecord(store.get(id)!) };
  }

  /**
   * Hands the spec to the engine (which prepares what the service needs, e.g. its image, and starts
   * it) and records the handle; a refusal is recorded as FAILED and reported. Returns the engine's notes.
   */
  private async submit(engine: Engine, spec: LaunchSpec): Promise<string[]> {
    const { store, reconciler } = this.deps;
    try {
      const submitted = await reconciler.submitting(spec.serviceId, () => engine.submit(spec));
      store.patch(spec.serviceId, { handle: submitted.handle, host: submitted.host, port: submitted.port, ...(submitted.runtime ? { runtime: submitted.runtime } : {}) });
      // Stopped (or removed) while the engine was still accepting it: do not leave it running.
      const now = store.get(spec.serviceId)?.status;
      if (now === undefined || now === "STOPPING" || !isLive(now)) await engine.stop(submitted.handle);
      return submitted.notes;
    } catch (error) {
      const failure = engineFailure(error, `${engine.kind} did not start the service`);
      store.transition(spec.serviceId, "FAILED", failure.message);
      throw failure;
    } finally {
      reconciler.wake();
    }
  }

  private defaultName(): string {
    const live = new Set(this.deps.store.live().map((row) => row.name));
    for (;;) {
      const name = `${NAME_PREFIX}${randomInt(10_000, 100_000)}`;
      if (!live.has(name)) return name;
    }
  }

  /**
   * `svc ls`: live services and those that ended in the last RECENTLY_ENDED_MS, or with `all` (or a
   * status) the whole history; live ones first, then ended ones, each newest first, a page of `limit`
   * at a time (`cursor`: where the previous page ended).
   */
  list(filter: { status?: ServiceStatus; id?: string; all?: boolean; limit?: number; cursor?: string }, now = new Date()): { services: ServiceRecord[]; nextCursor?: string } {
    const after = filter.cursor ? decodeCursor(filter.cursor) : undefined;
    const { rows, next } = this.deps.store.page(
      { status: filter.status, idPrefix: filter.id, all: filter.all || Boolean(filter.status), endedSince: new Date(now.getTime() - RECENTLY_ENDED_MS) },
      filter.limit ?? DEFAULT_LIST_LIMIT,
      after,
    );
    const events = this.deps.store.eventsOf(rows.map((row) => row.id));
    return { services: rows.map((row) => toServiceRecord(row, events.get(row.id) ?? [])), ...(next ? { nextCursor: encodeCursor(next) } : {}) };
  }

  /** A service by full id, unique id prefix, or name; ambiguity lists the candidates. */
  resolve(ref: string): ServiceRow {
    const { store } = this.deps;
    const exact = store.get(ref);
    if (exact) return exact;
    const byPrefix = /^[0-9a-f-]+$/i.test(ref) ? store.byPrefix(ref.toLowerCase()) : [];
    if (byPrefix.length === 1) return byPrefix[0];
    if (byPrefix.length > 1) {
      const list = byPrefix.map((row) => `${row.id} (${row.name}, ${row.status})`).join("; ");
      throw new ApiError(409, "ambiguous_id", `${ref} matches several services: ${list}. Give more characters of the id.`);
    }
    const byName = store.list({ all: true }).filter((row) => row.name === ref);
    if (byName.length >= 1) return byName[0];
    throw notFound(`No service has the id or name ${ref}. 'svc ls --all' lists them.`);
  }

  details(ref: string): ServiceDetails {
    const row = this.resolve(ref);
    return toServiceDetails(row, this.deps.store.events(row.id));
  }

  async stop(ref: string): Promise<ServiceRecord> {
    const row = this.resolve(ref);
    if (!isLive(row.status)) {
      throw conflict(`Service ${row.id} is already ${row.status}; nothing to stop.`);
    }
    const { store } = this.deps;
    // A renewal under way ends with the service: its other job (the successor, or the one draining) is cancelled too.
    const successor = readSuccessor(row);
    if (successor) {
      store.note(row.id, `renewal abandoned: the service is being stopped${successor.handle ? ` (job ${successor.handle.split(":")[0]} cancelled)` : ""}`, { successor: null });
      if (successor.handle) await this.deps.engineOf(row).stop(successor.handle).catch(() => {});
    }
    if (!row.handle) {
      store.transition(row.id, "STOPPED", "stopped by its creator before the engine accepted it");
    } else {
      store.transition(row.id, "STOPPING", "stop requested by its creator");
      try {
        await this.deps.engineOf(row).stop(row.handle);
      } catch (error) {
        throw engineFailure(error, "The engine did not stop the service");
      } finally {
        this.deps.reconciler.wake();
      }
    }
    return toServiceRecord(store.get(row.id)!);
  }

  /**
   * Starts a stopped, failed or timed-out service again with the same spec and id. With onDemand
   * (the gateway, for a request to an on-demand service) a service that is already live is left
   * as it is, so requests racing each other start it once.
   */
  async restart(ref: string, options: { onDemand?: boolean } = {}): Promise<ServiceRecord> {
    const row = this.resolve(ref);
    if (options.onDemand && !row.onDemand) throw conflict(`Service ${row.id} is not on demand (svc run --on-demand): start it with 'svc restart ${row.id.slice(0, 13)}'.`);
    if (isLive(row.status)) {
      if (options.onDemand) return toServiceRecord(row);
      throw conflict(`Service ${row.id} is ${row.status}; only a stopped, failed or timed-out service can be restarted.`);
    }
    const engine = this.deps.engineOf(row);
    if (row.handle) await engine.release(row.handle).catch(() => {});
    const spec: LaunchSpec = { serviceId: row.id, name: row.name, task: row.task, ...launchOf(row), generation: row.generation };
    const reason = options.onDemand ? "started on demand by a request" : "restarted by its creator";
    const applied = this.deps.store.transition(row.id, "SUBMITTED", reason, { handle: null, host: null, port: null, successor: null, endsAt: null, lastRequestAt: new Date().toISOString() }, row.status);
    // Another restart got there first (two requests for an on-demand service).
    if (!applied) return toServiceRecord(this.deps.store.get(row.id)!);
    await this.submit(engine, spec);
    return toServiceRecord(this.deps.store.get(row.id)!);
  }

  async remove(ref: string, force: boolean): Promise<ServiceRecord> {
    const row = this.resolve(ref);
    const removed = await removeRecord(row, {
      force,
      live: isLive(row.status),
      what: "Service",
      stopCommand: "svc stop",
      stop: (id) => this.stop(id),
      reread: (id) => this.deps.store.get(id)!,
      engine: this.deps.engineOf(row),
      forget: (id) => this.deps.store.remove(id),
    });
    return toServiceRecord(removed);
  }

  /** The gateway's report of the last request to each service: moves the idle clocks forward. */
  recordActivity(report: ActivityReport): { recorded: number } {
    return { recorded: this.deps.store.recordActivity(report.services) };
  }

  async logs(ref: string, follow: boolean, tail: number | undefined): Promise<ReadableStream<Uint8Array>> {
    const row = this.resolve(ref);
    if (!row.handle) throw conflict(`Service ${row.id} has no output yet: the engine has not accepted it.`);
    try {
      return await this.deps.engineOf(row).logs(row.handle, { follow, tail });
    } catch (error) {
      throw engineFailure(error, "The engine did not give the service's output");
    }
  }
}
