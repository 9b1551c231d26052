import type { ServiceRoute } from "@svc/contracts";
import { LeastInFlight } from "./balancer";
import { PrefixRing } from "./prefix-ring";

/** How a replica was chosen: its prompt prefix's own replica, the next one because that was too busy, or the least busy. */
export type RoutingDecision = "prefix" | "prefix_overflow" | "least_busy";

/** The services a request may go to: those the scaler is not draining, while any is left. */
export function usableReplicas(services: ServiceRoute[]): ServiceRoute[] {
  const open = services.filter((service) => !service.deployment?.draining);
  return open.length > 0 ? open : services;
}

/**
 * Picks the service a /v1 request goes to among those serving its model. Replicas the scaler is
 * draining are left out while any other can take the request. When every one left belongs to a
 * deployment routed by prefix and the request has a prompt, its prefix picks the replica
 * (PrefixRing); otherwise the one with the fewest requests in flight (LeastInFlight; among a
 * deployment's replicas, ties go to the first by name, so that the ones a light load does not need go
 * idle and the scaler can remove them). Each choice
 * of a deployment's replica is counted, for /metrics.
 */
export class ReplicaChooser {
  readonly balancer = new LeastInFlight();
  private readonly ring = new PrefixRing();
  /** Choices by deployment name and decision. */
  readonly decisions = new Map<string, { deployment: string; decision: RoutingDecision; count: number }>();
  /** Requests sent to each replica of a deployment. */
  readonly routed = new Map<string, { deployment: string; service: string; count: number }>();

  /** `prefix`: the request's prompt prefix (promptPrefix), read only when the replicas are routed by prefix. */
  choose(repo: string, services: ServiceRoute[], prefix: () => string | undefined): ServiceRoute | undefined {
    const usable = usableReplicas(services);
    let chosen: ServiceRoute | undefined;
    let decision: RoutingDecision = "least_busy";
    const key = usable.length > 0 && usable.every((service) => service.deployment?.routing === "prefix") ? prefix() : undefined;
    if (key !== undefined) {
      const picked = this.ring.pick(key, usable.map((service) => service.id), (id) => this.balancer.count(id));
      chosen = usable.find((service) => service.id === picked?.id);
      decision = picked?.overflow ? "prefix_overflow" : "prefix";
    } else if (usable.length > 0 && usable.every((service) => service.deployment)) {
      chosen = this.balancer.packed(usable);
    } else {
      chosen = this.balancer.pick(repo, usable);
    }
    if (chosen?.deployment) this.count(chosen.deployment.name, chosen.name, decision);
    return chosen;
  }

  private count(deployment: string, service: string, decision: RoutingDecision) {
    const byDecision = `${deployment}\n${decision}`;
    const seen = this.decisions.get(byDecision) ?? { deployment, decision, count: 0 };
    seen.count++;
    this.decisions.set(byDecision, seen);
    const byService = `${deployment}\n${service}`;
    const sent = this.routed.get(byService) ?? { deployment, service, count: 0 };
    sent.count++;
    this.routed.set(byService, sent);
  }
}
