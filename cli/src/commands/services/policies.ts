import type { ServicePolicyState } from "@svc/contracts";

/** "idle-stop=30 min on-demand start-timeout=15 min renew-before=10 min", or "none". */
export function formatPolicies(p: ServicePolicyState): string {
  const parts = [
    ...(p.idleStop ? [`idle-stop=${p.idleStop}`] : []),
    ...(p.onDemand ? ["on-demand", `start-timeout=${p.startTimeout}`] : []),
    ...(p.renew ? [`renew renew-before=${p.renewBefore}`] : []),
  ];
  return parts.length ? parts.join(" ") : "none";
}
