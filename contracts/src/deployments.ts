import { Type, type Static } from "@sinclair/typebox";
import { DURATION_PATTERN } from "./durations";
import { literalUnion } from "./literal-union";
import { ENGINE_KINDS, TASKS } from "./service-values";

/**
 * Deployments (issue 31): a named set of identical services (replicas) of one model on one profile,
 * which the orchestrator's scaler grows and shrinks between MIN and MAX by the requests in flight
 * that the gateway reports. Each replica is an ordinary service (its own id, status, idle stop and
 * renewal); the deployment keeps the spec, the bounds and the events of each scaling decision.
 */

/** How /v1 picks a replica of a deployment: the one with the fewest requests in flight, or by a hash of the prompt's prefix with bounded load. */
export const ROUTING_MODES = ["least-busy", "prefix"] as const;
export type RoutingMode = (typeof ROUTING_MODES)[number];
export const DEFAULT_ROUTING: RoutingMode = "least-busy";

/** `--replicas MIN..MAX` (or `N`, meaning N..N); MAX at most MAX_REPLICAS. */
export const REPLICA_RANGE_PATTERN = "^\\d{1,3}(\\.\\.\\d{1,3})?$";
export const MAX_REPLICAS = 64;
export const DEFAULT_SCALE_UP_AFTER = "30s";
export const DEFAULT_SCALE_DOWN_AFTER = "5m";

/** `MIN..MAX` or `N` as numbers, or a message saying what to fix. */
export function readReplicaRange(text: string): { min: number; max: number } | { error: string } {
  const match = /^(\d{1,3})(?:\.\.(\d{1,3}))?$/.exec(text.trim());
  if (!match) return { error: `replicas must be MIN..MAX (e.g. 0..3) or a count (e.g. 2), not "${text}"` };
  const min = Number(match[1]);
  const max = Number(match[2] ?? match[1]);
  if (max < 1) return { error: "replicas: MAX must be at least 1 (0..0 would never serve; stop the deployment instead)" };
  if (min > max) return { error: `replicas: MIN (${min}) is above MAX (${max})` };
  if (max > MAX_REPLICAS) return { error: `replicas: MAX may be at most ${MAX_REPLICAS}, not ${max}` };
  return { min, max };
}

const duration = (description: string) => Type.String({ minLength: 1, maxLength: 32, pattern: DURATION_PATTERN, description });
const replicas = Type.String({ pattern: REPLICA_RANGE_PATTERN, maxLength: 9, description: "MIN..MAX replicas (0..3), or N for exactly N. MIN 0: none runs until a request comes." });
const targetInflight = Type.Integer({ minimum: 1, maximum: 100_000, description: "Requests in flight per HEALTHY replica above which the scaler adds one; default from the engine's concurrency." });

/** `RunRequest.scaling`: run the request as a deployment of replicas instead of one service. */
export const ScalingRequest = Type.Object(
  {
    replicas,
    targetInflight: Type.Optional(targetInflight),
    scaleUpAfter: Type.Optional(duration(`How long the load must stay above the target before a replica is added. Default ${DEFAULT_SCALE_UP_AFTER}.`)),
    scaleDownAfter: Type.Optional(duration(`How long a replica must have had no request before it is drained and stopped (never below MIN). Default ${DEFAULT_SCALE_DOWN_AFTER}.`)),
    routing: Type.Optional(literalUnion(ROUTING_MODES, { description: `How /v1 picks a replica: least-busy (default) or prefix (requests sharing a long prompt prefix go to the same replica while its load stays within a bound of the average).` })),
  },
  { $id: "ScalingRequest", additionalProperties: false },
);
export type ScalingRequest = Static<typeof ScalingRequest>;

/** Body of PATCH /api/deployments/{ref} (`svc scale REF MIN..MAX`): any field given replaces the deployment's. */
export const ScaleRequest = Type.Object(
  {
    replicas: Type.Optional(replicas),
    targetInflight: Type.Optional(targetInflight),
    scaleUpAfter: Type.Optional(ScalingRequest.properties.scaleUpAfter),
    scaleDownAfter: Type.Optional(ScalingRequest.properties.scaleDownAfter),
    routing: Type.Optional(ScalingRequest.properties.routing),
  },
  { $id: "ScaleRequest", additionalProperties: false },
);
export type ScaleRequest = Static<typeof ScaleRequest>;

export const DEPLOYMENT_STATUSES = ["ACTIVE", "STOPPED"] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** One scaling decision, or a change made by a person (scale, stop), with its reason. */
export const DeploymentEvent = Type.Object(
  {
    at: Type.String({ format: "date-time" }),
    /** Live replicas (HEALTHY or on their way up) before and after the decision. */
    from: Type.Integer(),
    to: Type.Integer(),
    message: Type.String({ description: "E.g. `scaled up to 3: 9.5 in flight per replica for 30 s`." }),
  },
  { $id: "DeploymentEvent" },
);
export type DeploymentEvent = Static<typeof DeploymentEvent>;

export const DeploymentRecord = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    name: Type.String(),
    task: literalUnion(TASKS),
    model: Type.String(),
    revision: Type.String(),
    profile: Type.String(),
    engine: literalUnion(ENGINE_KINDS),
    status: literalUnion(DEPLOYMENT_STATUSES),
    min: Type.Integer(),
    max: Type.Integer(),
    targetInflight: Type.Integer(),
    scaleUpAfterSeconds: Type.Integer(),
    scaleDownAfterSeconds: Type.Integer(),
    routing: literalUnion(ROUTING_MODES),
    /** Replicas by state now: HEALTHY, on their way up (SUBMITTED, PENDING, STARTING), and the rest. */
    healthy: Type.Integer(),
    coming: Type.Integer(),
    /** Requests in flight over all replicas, as the gateway last reported. */
    inFlight: Type.Integer(),
    adapters: Type.Optional(Type.Array(Type.String(), { description: "The LoRA adapters its replicas serve on its model (svc run --adapter, svc adapter add|rm), each a model of /v1." })),
    createdBy: Type.String(),
    createdAt: Type.String({ format: "date-time" }),
    updatedAt: Type.String({ format: "date-time" }),
  },
  { $id: "DeploymentRecord" },
);
export type DeploymentRecord = Static<typeof DeploymentRecord>;
