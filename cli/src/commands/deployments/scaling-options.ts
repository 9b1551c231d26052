import {
  closest,
  DEFAULT_ROUTING,
  DEFAULT_SCALE_DOWN_AFTER,
  DEFAULT_SCALE_UP_AFTER,
  didYouMean,
  parseDuration,
  readReplicaRange,
  ROUTING_MODES,
  type RoutingMode,
  type ScaleRequest,
} from "@svc/contracts";
import { UsageError } from "../../errors";

/**
 * The scaling options of `svc run --replicas …` and `svc scale REF MIN..MAX`, checked here as the
 * API would check them, so a wrong one is a usage error that says what to fix before anything is sent.
 */
export const SCALING_OPTION_NAMES = ["--replicas", "--target-inflight", "--scale-up-after", "--scale-down-after", "--routing"] as const;
export type ScalingOptionName = (typeof SCALING_OPTION_NAMES)[number];

export const SCALING_DESCRIPTIONS: Record<ScalingOptionName, string> = {
  "--replicas": "MIN..MAX (e.g. 0..3) or N: run a deployment of replicas that grows and shrinks with the load (MIN 0: none runs until a request comes)",
  "--target-inflight": "Requests in flight per HEALTHY replica above which a replica is added (default: from the engine's concurrency)",
  "--scale-up-after": `How long the load must stay above the target before a replica is added (default ${DEFAULT_SCALE_UP_AFTER})`,
  "--scale-down-after": `How long a replica must have had no request before it is drained and stopped (default ${DEFAULT_SCALE_DOWN_AFTER})`,
  "--routing": `How /v1 picks a replica: ${ROUTING_MODES.join(" or ")} (default ${DEFAULT_ROUTING}; prefix: prompts sharing a long prefix go to the same replica)`,
};

/** The replica range as sent (`MIN..MAX` or `N`), or a usage error from readReplicaRange. */
export function checkReplicas(text: string): string {
  const range = readReplicaRange(text);
  if ("error" in range) throw new UsageError(`--replicas ${JSON.stringify(text)}: ${range.error}.`);
  return text.trim();
}

function checkDuration(option: string, text: string): string {
  if (parseDuration(text) === undefined) throw new UsageError(`${option} ${JSON.stringify(text)}: give a duration such as 30s, 5m, 1h30m or HH:MM:SS.`);
  return text.trim();
}

function checkTarget(text: string): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > 100_000) throw new UsageError(`--target-inflight ${JSON.stringify(text)}: use a whole number of requests from 1 to 100000.`);
  return value;
}

function checkRouting(text: string): RoutingMode {
  const mode = ROUTING_MODES.find((m) => m === text.trim());
  if (!mode) throw new UsageError(`--routing ${JSON.stringify(text)}: use ${ROUTING_MODES.join(" or ")}.${didYouMean(closest(text, ROUTING_MODES))}`);
  return mode;
}

/** Sets the field of `option` on `request` from its text value (checked). */
export function applyScalingOption(request: ScaleRequest, option: ScalingOptionName, value: string): void {
  if (option === "--replicas") request.replicas = checkReplicas(value);
  else if (option === "--target-inflight") request.targetInflight = checkTarget(value);
  else if (option === "--scale-up-after") request.scaleUpAfter = checkDuration(option, value);
  else if (option === "--scale-down-after") request.scaleDownAfter = checkDuration(option, value);
  else request.routing = checkRouting(value);
}

/** cac's parsed options of `svc scale` (camelCase, numbers as numbers) as a checked ScaleRequest. */
export function scaleRequestFrom(replicas: string | undefined, options: Record<string, unknown>): ScaleRequest {
  const request: ScaleRequest = {};
  if (replicas !== undefined) applyScalingOption(request, "--replicas", String(replicas));
  const fields: [ScalingOptionName, unknown][] = [
    ["--target-inflight", options.targetInflight],
    ["--scale-up-after", options.scaleUpAfter],
    ["--scale-down-after", options.scaleDownAfter],
    ["--routing", options.routing],
  ];
  for (const [option, value] of fields) {
    if (value === true) throw new UsageError(`${option} needs a value.`);
    if (value !== undefined) applyScalingOption(request, option, String(value));
  }
  if (Object.keys(request).length === 0) throw new UsageError("give the new bounds (e.g. svc scale REF 1..4) or at least one of --target-inflight, --scale-up-after, --scale-down-after, --routing.");
  return request;
}
