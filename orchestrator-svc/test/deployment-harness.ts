import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeEngine } from "@svc/testing";
import type { Model, Profile, RunRequest, ServiceStatus } from "@svc/contracts";
import { ServiceStore, type ServiceRow } from "../src/db/service-store";
import { DeploymentStore } from "../src/db/deployment-store";
import { Reconciler } from "../src/reconciler/reconciler";
import { ServicesService } from "../src/services/service";
import { DeploymentsService } from "../src/deployments/service";
import { InFlightCounts } from "../src/deployments/in-flight";
import { scalerOf, type Scaler } from "../src/deployments/scaler";
import { plannerDeps } from "./planner-deps";

/**
 * Deployments over a scripted engine (FakeEngine) and a fake clock, for unit tests of the scaler's
 * decisions: the real stores, services feature, deployments feature, reconciler and scaler, with
 * helpers that make a replica's job report queued or healthy, report requests in flight, and move time.
 */
export function deploymentHarness() {
  const home = mkdtempSync(join(tmpdir(), "svc-deployments-"));
  const profile: Profile = { name: "default", schema: "local", home_dir: home, cache_dir: home };
  const model: Model = { repo: "acme/tiny", revision: "a".repeat(40), profile: "default", image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z" };
  const engine = new FakeEngine();
  const file = join(home, "o.db");
  const store = new ServiceStore(file);
  const deploymentStore = new DeploymentStore(file);
  const inFlight = new InFlightCounts();
  let now = Date.now();
  const healthyPorts = new Set<number>();
  const scaling: { scaler?: Scaler } = {};
  const reconciler = new Reconciler({ store, engineFor: () => engine, probe: async (_host, port) => healthyPorts.has(port), now: () => now, afterTick: async () => scaling.scaler?.tick() });
  const services = new ServicesService({ store, planner: plannerDeps({}, profile, model), engineFor: () => engine, engineOf: () => engine, reconciler, inFlight });
  const deployments = new DeploymentsService({ store: deploymentStore, services: store, replicas: services, inFlight, wake: () => {} });
  scaling.scaler = scalerOf({ deployments: deploymentStore, services: store, inFlight, starts: deployments, stops: services, now: () => now });
  let nextPort = 20_000;
  const replicas = (deployment: string): ServiceRow[] => store.replicasOf([deployment]).get(deployment) ?? [];
  const counts = (deployment: string) => {
    const byStatus: Partial<Record<ServiceStatus, number>> = {};
    for (const row of replicas(deployment)) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
    return byStatus;
  };
  return {
    engine,
    store,
    deploymentStore,
    services,
    deployments,
    reconciler,
    replicas,
    counts,
    /** Runs a deployment of the tiny model with these scaling fields. */
    run: (scaling: RunRequest["scaling"], name = "tiny") => deployments.run({ task: "text-generation", model: "acme/tiny", name, scaling }, scaling!),
    /** Every replica whose job the engine accepted and that is not scripted yet runs and answers its health check (or, `queued`, waits in the queue). */
    settle(deployment: string, as: "healthy" | "queued" = "healthy") {
      for (const row of replicas(deployment)) {
        if (!row.handle || !["SUBMITTED", "PENDING"].includes(row.status) || engine.stopped.includes(row.handle)) continue;
        if (as === "queued") engine.script(row.handle, { phase: "queued", reason: "waiting for resources (Slurm: Resources)" });
        else {
          const port = nextPort++;
          healthyPorts.add(port);
          engine.script(row.handle, { phase: "running", host: "127.0.0.1", port });
        }
      }
    },
    /** The gateway's report of requests in flight per replica name, and of those `waiting` in its queue for the deployment's model. */
    report(deployment: string, byName: Record<string, number>, waiting = 0) {
      const rows = replicas(deployment);
      const counts = Object.entries(byName).map(([name, count]) => ({ id: rows.find((row) => row.name === name)!.id, count }));
      const at = new Date(now).toISOString();
      services.recordActivity({ services: counts.filter((entry) => entry.count > 0).map((entry) => ({ id: entry.id, lastRequestAt: at })), inFlight: counts, ...(waiting ? { waiting: [{ deployment, count: waiting }] } : {}) });
    },
    /** Moves the fake clock and runs one reconciler tick (the scaler runs at its end). */
    async tick(ms = 0) {
      now += ms;
      await reconciler.tick();
    },
    now: () => now,
  };
}
