import { randomUUID } from "node:crypto";
import { conflict, type ActivityReport, DEFAULT_PROFILE, isLive, type Profile, type RunRequest, type RunResponse, type ServiceDetails, type ServiceRecord, type ServiceStatus } from "@svc/contracts";
import type { ServiceRow, ServiceStore } from "../db/service-store";
import type { Engine, LaunchSpec } from "../engines/engine";
import type { Reconciler } from "../reconciler/reconciler";
import { planLaunch, type PlannerDeps } from "../launch/planner";
import { engineFailure } from "./engine-failure";
import { addAdapter, removeAdapter } from "./adapter-changes";
import { removeWorkload, stopWorkload, submitWorkload } from "../workloads/lifecycle";
import { submittedRow, unusedName } from "../workloads/records";
import { recentlyEndedSince, resolveWorkload, SERVICE_WORDS } from "../workloads/lookup";
import { resolvePolicies, type PolicyColumns } from "../launch/policies";
import { launchOf, policiesOf, readSuccessor, toServiceDetails, toServiceRecord, type StoredSpec } from "./records";
import { decodeCursor, encodeCursor } from "./list-cursor";
import { DEFAULT_LIST_LIMIT } from "./model";

/** What every record of a run holds (one service, or each replica of a deployment): the planned spec, policies and key. */
export type ServiceTemplate = Pick<ServiceRow, "name" | "task" | "model" | "revision" | "profile" | "engine" | "runtime" | "apiKey"> & PolicyColumns & { spec: StoredSpec };

export interface ServicesDeps {
  store: ServiceStore;
  planner: PlannerDeps;
  /** The engine for a profile's services. */
  engineFor(profile: Profile): Engine;
  /** The engine of an existing record. */
  engineOf(row: ServiceRow): Engine;
  reconciler: Pick<Reconciler, "wake" | "submitting">;
  /** Told the requests in flight per service when a report has them (the scaler of deployments). */
  inFlight?: { record(counts: { id: string; count: number }[], at: number, waiting?: { deployment: string; count: number }[]): void };
}

const NAME_PREFIX = "svc-";

/** svc run / ls / details / stop / restart / rm / logs, over the records and the engines. */
export class ServicesService {
  constructor(private readonly deps: ServicesDeps) {}

  async run(request: RunRequest): Promise<RunResponse> {
    const { store } = this.deps;
    const id = randomUUID();
    const { base, template } = await this.plan(request, request.name ?? unusedName(NAME_PREFIX, store.live()), id);
    if (request.dryRun) return { ...base, service: null };
    const row = this.insertRecord(template, { id, name: template.name, status: "SUBMITTED", reason: `submitted to ${template.engine}` });
    const notes = await this.submitRecord(row);
    return { ...base, warnings: [...base.warnings, ...notes], service: toServiceRecord(store.get(row.id)!) };
  }

  /**
   * Checks and plans a run once: the launch, the policies, and the engine's script for a service
   * named `name` with id `id` (a 4xx saying what to fix when something is not allowed). `template`
   * is what each record made from it holds (one service, or each replica of a deployment).
   */
  async plan(request: RunRequest, name: string, id: string): Promise<{ base: Omit<RunResponse, "service">; template: ServiceTemplate }> {
    const plan = await planLaunch(request, this.deps.planner, DEFAULT_PROFILE);
    if (request.name && this.deps.store.liveWithName(request.name).length > 0) {
      throw conflict(`A running service is already named ${request.name}: choose another --name, or stop that one first.`);
    }
    const policies = resolvePolicies(request, plan.profile, plan.capabilities);
    const engine = this.deps.engineFor(plan.profile);
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
      ...(plan.placement ? { placement: plan.placement } : {}),
    };
    const script = await engine.render(spec).catch((error) => {
      throw engineFailure(error, `${engine.kind} cannot run this service`);
    });
    const base = { matched: plan.matched, revision: plan.model.revision, warnings: plan.warnings, script, policies: policiesOf(policies), ...(plan.placement ? { placement: plan.placement } : {}), ...(plan.engineVersion ? { engineVersion: plan.engineVersion } : {}) };
    const stored: StoredSpec = {
      job: spec.job,
      textGeneration: request.textGeneration,
      speechRecognition: request.speechRecognition,
      engineArgs: request.engineArgs ?? [],
      ...(request.mounts?.length ? { mounts: request.mounts } : {}),
      ...(request.gracePeriod !== undefined ? { gracePeriod: request.gracePeriod } : {}),
      ...(request.image !== undefined ? { image: request.image } : {}),
      ...(plan.adapters.length ? { adapters: plan.adapters.map((adapter) => adapter.name) } : {}),
      launch: {
        image: spec.image,
        args: spec.args,
        modelDir: spec.modelDir,
        inputDir: spec.inputDir,
        mounts: spec.mounts,
        ...(spec.placement ? { placement: spec.placement } : {}),
        ...(plan.adapters.length ? { adapters: plan.adapters.map(({ name, path, rank }) => ({ name, path, ...(rank !== undefined ? { rank } : {}) })) } : {}),
      },
    };
    const template: ServiceTemplate = {
      name,
      task: request.task,
      model: request.model,
      revision: plan.model.revision,
      profile: plan.profile.name,
      engine: engine.kind,
      spec: stored,
      runtime: plan.image,
      apiKey: request.apiKey ?? null,
      ...policies,
    };
    return { base, template };
  }

  /** Records a service made from `template` (a replica: with its deployment), not yet handed to the engine. */
  insertRecord(template: ServiceTemplate, record: { id: string; name: string; status: "SUBMITTED" | "STOPPED"; reason: string; deploymentId?: string }): ServiceRow {
    const { name: _, spec, runtime, apiKey, idleStopSeconds, onDemand, startTimeoutSeconds, renewBeforeSeconds, ...identity } = template;
    this.deps.store.insert(
      {
        ...submittedRow({ ...identity, id: record.id, name: record.name, spec }),
        runtime,
        apiKey,
        idleStopSeconds,
        onDemand,
        startTimeoutSeconds,
        renewBeforeSeconds,
        status: record.status,
        reason: record.status === "SUBMITTED" ? null : record.reason,
        host: null,
        port: null,
        deploymentId: record.deploymentId ?? null,
      },
      record.reason,
    );
    return this.deps.store.get(record.id)!;
  }

  /** Hands a SUBMITTED record to its engine; returns the engine's notes. */
  submitRecord(row: ServiceRow): Promise<string[]> {
    return this.submit(this.deps.engineOf(row), { serviceId: row.id, name: row.name, task: row.task, ...launchOf(row) });
  }

  /** Hands the spec to the engine (which prepares what the service needs, e.g. its image, and starts it). */
  private submit(engine: Engine, spec: LaunchSpec): Promise<string[]> {
    const { store, reconciler } = this.deps;
    return submitWorkload(engine, spec, {
      words: SERVICE_WORDS,
      store,
      live: isLive,
      recorded: (submitted) => ({ handle: submitted.handle, host: submitted.host, port: submitted.port, ...(submitted.runtime ? { runtime: submitted.runtime } : {}) }),
      during: (id, submit) => reconciler.submitting(id, submit),
      wake: () => reconciler.wake(),
    });
  }

  /**
   * `svc ls`: live services and those that ended in the last RECENTLY_ENDED_MS, or with `all` (or a
   * status) the whole history; live ones first, then ended ones, each newest first, a page of `limit`
   * at a time (`cursor`: where the previous page ended).
   */
  list(filter: { status?: ServiceStatus; id?: string; all?: boolean; limit?: number; cursor?: string }, now = new Date()): { services: ServiceRecord[]; nextCursor?: string } {
    const after = filter.cursor ? decodeCursor(filter.cursor) : undefined;
    const { rows, next } = this.deps.store.page(
      { status: filter.status, idPrefix: filter.id, all: filter.all || Boolean(filter.status), endedSince: recentlyEndedSince(now) },
      filter.limit ?? DEFAULT_LIST_LIMIT,
      after,
    );
    const events = this.deps.store.eventsOf(rows.map((row) => row.id));
    return { services: rows.map((row) => toServiceRecord(row, events.get(row.id) ?? [])), ...(next ? { nextCursor: encodeCursor(next) } : {}) };
  }

  /** A service by full id, unique id prefix, or name; ambiguity lists the candidates. */
  resolve(ref: string): ServiceRow {
    return resolveWorkload(this.deps.store, ref, SERVICE_WORDS);
  }

  details(ref: string): ServiceDetails {
    const row = this.resolve(ref);
    return toServiceDetails(row, this.deps.store.events(row.id));
  }

  async stop(ref: string): Promise<ServiceRecord> {
    const row = this.resolve(ref);
    const { store } = this.deps;
    // A renewal under way ends with the service: its other job (the successor, or the one draining) is cancelled too.
    const successor = isLive(row.status) ? readSuccessor(row) : null;
    if (successor) {
      store.note(row.id, `renewal abandoned: the service is being stopped${successor.handle ? ` (job ${successor.handle.split(":")[0]} cancelled)` : ""}`, { successor: null });
      if (successor.handle) await this.deps.engineOf(row).stop(successor.handle).catch(() => {});
    }
    await stopWorkload(row, { live: isLive(row.status), words: SERVICE_WORDS, store, engine: () => this.deps.engineOf(row), wake: () => this.deps.reconciler.wake() });
    return toServiceRecord(store.get(row.id)!);
  }

  /**
   * Starts a stopped, failed or timed-out service again with the same spec and id. With onDemand
   * (the gateway, for a request to an on-demand service) a service that is already live is left
   * as it is, so requests racing each other start it once.
   */
  async restart(ref: string, options: { onDemand?: boolean; reason?: string; forDeployment?: boolean } = {}): Promise<ServiceRecord> {
    const row = this.resolve(ref);
    // A replica is started by its deployment's scaler (or, at MIN 0, by a request): one started by hand would only be drained again.
    if (row.deploymentId && !options.onDemand && !options.forDeployment) {
      throw conflict(`Service ${row.name} is a replica of deployment ${row.deploymentId}, which starts and stops its replicas: change how many run with 'svc scale ${row.deploymentId.slice(0, 13)} MIN..MAX' (which also starts a stopped deployment again).`);
    }
    if (options.onDemand && !row.onDemand) throw conflict(`Service ${row.id} is not on demand (svc run --on-demand): start it with 'svc restart ${row.id.slice(0, 13)}'.`);
    if (isLive(row.status)) {
      if (options.onDemand) return toServiceRecord(row);
      throw conflict(`Service ${row.id} is ${row.status}; only a stopped, failed or timed-out service can be restarted.`);
    }
    const engine = this.deps.engineOf(row);
    if (row.handle) await engine.release(row.handle).catch(() => {});
    const spec: LaunchSpec = { serviceId: row.id, name: row.name, task: row.task, ...launchOf(row), generation: row.generation };
    const reason = options.reason ?? (options.onDemand ? "started on demand by a request" : "restarted by its creator");
    const applied = this.deps.store.transition(row.id, "SUBMITTED", reason, { handle: null, host: null, port: null, successor: null, endsAt: null, drainingSince: null, lastRequestAt: new Date().toISOString() }, row.status);
    // Another restart got there first (two requests for an on-demand service).
    if (!applied) return toServiceRecord(this.deps.store.get(row.id)!);
    await this.submit(engine, spec);
    return toServiceRecord(this.deps.store.get(row.id)!);
  }

  /** Stops a live service for the scaler of its deployment, with the reason it keeps once STOPPED (nothing when it is no longer live). */
  async stopWithReason(id: string, reason: string): Promise<void> {
    const { store } = this.deps;
    const row = store.get(id);
    if (!row || !isLive(row.status)) return;
    if (!row.handle) {
      store.transition(id, "STOPPED", reason, { drainingSince: null }, row.status);
      return;
    }
    if (!store.transition(id, "STOPPING", reason, { drainingSince: null }, row.status)) return;
    try {
      await this.deps.engineOf(row).stop(row.handle);
    } finally {
      this.deps.reconciler.wake();
    }
  }

  async remove(ref: string, force: boolean): Promise<ServiceRecord> {
    const row = this.resolve(ref);
    const removed = await removeWorkload(row, { force, live: isLive(row.status), words: SERVICE_WORDS, stop: (id) => this.stop(id), store: this.deps.store, engine: this.deps.engineOf(row) });
    return toServiceRecord(removed);
  }

  /** `svc adapter add`: one more LoRA adapter served by a running service, without a restart (see adapter-changes.ts). */
  async addAdapter(ref: string, adapter: string): Promise<ServiceRecord> {
    return toServiceRecord(await addAdapter(this.deps, this.resolve(ref), adapter));
  }

  /** `svc adapter rm`: the service serves the adapter no longer (at once when it runs). */
  async removeAdapter(ref: string, adapter: string): Promise<ServiceRecord> {
    return toServiceRecord(await removeAdapter(this.deps, this.resolve(ref), adapter));
  }

  /** The gateway's report of the last request to each service: moves the idle clocks forward. */
  recordActivity(report: ActivityReport): { recorded: number } {
    if (report.inFlight) this.deps.inFlight?.record(report.inFlight, Date.now(), report.waiting);
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
