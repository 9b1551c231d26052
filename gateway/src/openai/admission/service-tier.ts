import { SERVICE_TIERS, type ServiceTier } from "@svc/contracts";
import { proxyError } from "../../proxy/proxy-error";
import type { V1Body } from "../request-body";

const rank = (tier: ServiceTier) => SERVICE_TIERS.indexOf(tier);

/**
 * The tier a request goes in: its `service_tier` (OpenAI's), or for `auto` or none the key's own.
 * A key's tier is the highest its requests may ask for: above it, or a tier svc does not know, is
 * a 400 naming `service_tier`. Callers without a key (the svc token, debug mode) may ask for any.
 */
export function requestTier(body: V1Body, keyTier: ServiceTier | undefined): ServiceTier | Response {
  const asked = body.json?.service_tier;
  if (asked === undefined || asked === null || asked === "auto") return keyTier ?? "default";
  const tier = SERVICE_TIERS.find((known) => known === asked);
  if (!tier) {
    return proxyError(400, "invalid_request", `service_tier ${JSON.stringify(asked)} is not one svc knows: use auto, ${SERVICE_TIERS.join(", ")}.`, {}, "service_tier");
  }
  if (keyTier && rank(tier) < rank(keyTier)) {
    return proxyError(400, "invalid_request", `service_tier '${tier}' is above this key's tier '${keyTier}': ask for ${SERVICE_TIERS.slice(rank(keyTier)).join(" or ")}, or auto (the key's).`, {}, "service_tier");
  }
  return tier;
}
