import { badRequest, DEFAULT_ROUTING, DEFAULT_SCALE_DOWN_AFTER, DEFAULT_SCALE_UP_AFTER, parseDuration, readReplicaRange, type ScaleRequest, type ScalingRequest } from "@svc/contracts";
import type { DeploymentPatch } from "../db/deployment-store";

/** `--replicas MIN..MAX` as numbers, or a 400 saying what to fix. */
function replicaRange(text: string): { min: number; max: number } {
  const range = readReplicaRange(text);
  if ("error" in range) throw badRequest(range.error, { field: "scaling.replicas" });
  return range;
}

function seconds(option: string, text: string): number {
  const value = parseDuration(text);
  if (value === undefined) throw badRequest(`${option} ${JSON.stringify(text)}: give a duration such as 30s, 5m or 1h.`, { field: option });
  if (value < 1) throw badRequest(`${option} must be at least 1s, not ${JSON.stringify(text)}.`, { field: option });
  return value;
}

/** The scaling columns of a new deployment from `svc run --replicas …` (targetInflight: the given one or `defaultTarget()`, the engine's). */
export function readScaling(scaling: ScalingRequest, defaultTarget: () => number) {
  const { min, max } = replicaRange(scaling.replicas);
  return {
    min,
    max,
    targetInflight: scaling.targetInflight ?? defaultTarget(),
    scaleUpAfterSeconds: seconds("--scale-up-after", scaling.scaleUpAfter ?? DEFAULT_SCALE_UP_AFTER),
    scaleDownAfterSeconds: seconds("--scale-down-after", scaling.scaleDownAfter ?? DEFAULT_SCALE_DOWN_AFTER),
    routing: scaling.routing ?? DEFAULT_ROUTING,
  };
}

/** The columns `svc scale` changes: only the fields given. */
export function readScale(request: ScaleRequest): DeploymentPatch {
  const patch: DeploymentPatch = {};
  if (request.replicas !== undefined) Object.assign(patch, replicaRange(request.replicas));
  if (request.targetInflight !== undefined) patch.targetInflight = request.targetInflight;
  if (request.scaleUpAfter !== undefined) patch.scaleUpAfterSeconds = seconds("--scale-up-after", request.scaleUpAfter);
  if (request.scaleDownAfter !== undefined) patch.scaleDownAfterSeconds = seconds("--scale-down-after", request.scaleDownAfter);
  if (request.routing !== undefined) patch.routing = request.routing;
  return patch;
}
