import { Type, type Static } from "@sinclair/typebox";
import { DURATION_PATTERN } from "./durations";

/**
 * Lifecycle policies of a service (desired state the orchestrator's reconciler acts on): stop
 * when idle, start on the first request, and (Slurm) renew the job before its wall time.
 */

// Durations are plain values in durations.ts (index.ts exports them), so the CLI reads them without loading typebox.
const duration = (description: string) => Type.String({ minLength: 1, maxLength: 32, pattern: DURATION_PATTERN, description });

export const DEFAULT_START_TIMEOUT = "15m";
export const DEFAULT_RENEW_BEFORE = "10m";

/** The policies `svc run` takes (--idle-stop, --on-demand, --start-timeout, --renew, --renew-before). */
export const ServicePolicies = Type.Object(
  {
    idleStop: Type.Optional(duration("Stop the service after it has answered no request (through /v1 or /proxy) for this long; default: the profile's idle_stop, else never.")),
    onDemand: Type.Optional(Type.Boolean({ description: "A request for the service while it is STOPPED starts it again and waits until it is HEALTHY." })),
    startTimeout: Type.Optional(duration(`How long a request waits for an on-demand start; past it, 503 with the scheduler's reason. Default ${DEFAULT_START_TIMEOUT}.`)),
    renew: Type.Optional(Type.Boolean({ description: "Slurm, with --time: submit a successor job before the job's end time and hand over to it, so the service outlives the wall time." })),
    renewBefore: Type.Optional(duration(`How long before the job's end time the successor is submitted. Default ${DEFAULT_RENEW_BEFORE}.`)),
  },
  { $id: "ServicePolicies", additionalProperties: false },
);
export type ServicePolicies = Static<typeof ServicePolicies>;

/** The policies as the service keeps them: every default filled in. */
export const ServicePolicyState = Type.Object(
  {
    idleStop: Type.Union([Type.String(), Type.Null()], { description: "In words (`30 min`); null: never stopped for idling." }),
    idleStopSeconds: Type.Union([Type.Integer(), Type.Null()]),
    onDemand: Type.Boolean(),
    startTimeout: Type.String({ description: "In words (`15 min`)." }),
    startTimeoutSeconds: Type.Integer(),
    renew: Type.Boolean(),
    renewBefore: Type.Union([Type.String(), Type.Null()], { description: "In words; null unless renew is on." }),
    renewBeforeSeconds: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: "ServicePolicyState" },
);
export type ServicePolicyState = Static<typeof ServicePolicyState>;

/** Whether requests for a service wait while it is on its way up (or, on demand, stopped) instead of being refused at once. */
export const requestsWait = (policies: Pick<ServicePolicyState, "onDemand" | "renew">) => policies.onDemand || policies.renew;

/** A renewal under way: the job that will take over (or, once it has, the one draining). */
export const ServiceSuccessor = Type.Object(
  {
    phase: Type.Union([Type.Literal("submitting"), Type.Literal("starting"), Type.Literal("draining")], {
      description: "submitting: sbatch under way; starting: the successor is queued or starting; draining: the successor serves, `handle` is the old job finishing its requests.",
    }),
    handle: Type.Union([Type.String(), Type.Null()]),
    since: Type.String({ format: "date-time" }),
  },
  { $id: "ServiceSuccessor" },
);
export type ServiceSuccessor = Static<typeof ServiceSuccessor>;

/** Body of POST /api/services/activity: when the gateway last passed a request to each service, and how many it holds for each now. */
export const ActivityReport = Type.Object(
  {
    services: Type.Array(
      Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), lastRequestAt: Type.String({ format: "date-time", maxLength: 64 }) }, { additionalProperties: false }),
      { maxItems: 10_000 },
    ),
    /**
     * Requests the gateway holds for each service now (passed on, or waiting for it to start), for
     * the scaler of deployments. Every service with any in flight is listed; one absent has none.
     * Sent whenever the counts changed since the last report. Absent in a report that says only times.
     */
    inFlight: Type.Optional(
      Type.Array(Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), count: Type.Integer({ minimum: 0, maximum: 10_000_000 }) }, { additionalProperties: false }), { maxItems: 10_000 }),
    ),
    /**
     * Requests waiting in the gateway's fair-share queue for a deployment's model (every replica
     * busy), by deployment id: load for the scaler as much as those in flight. Sent with `inFlight`;
     * a deployment absent from it has none waiting.
     */
    waiting: Type.Optional(
      Type.Array(Type.Object({ deployment: Type.String({ minLength: 1, maxLength: 64 }), count: Type.Integer({ minimum: 0, maximum: 10_000_000 }) }, { additionalProperties: false }), { maxItems: 10_000 }),
    ),
  },
  { $id: "ActivityReport", additionalProperties: false },
);
export type ActivityReport = Static<typeof ActivityReport>;
