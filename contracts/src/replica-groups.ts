/**
 * How `svc ls` and the services page show replicas (issue 31): a service on its own as it is, the
 * replicas of one deployment together, where the first of them stands in the list.
 */
export type ListedEntry<S> = { service: S } | { deployment: string; replicas: S[] };

/** `services` in their order, each deployment's replicas gathered at the place of its first one. */
export function groupReplicas<S extends { deployment?: string | null }>(services: S[]): ListedEntry<S>[] {
  const groups = new Map<string, S[]>();
  const entries: ListedEntry<S>[] = [];
  for (const service of services) {
    if (!service.deployment) {
      entries.push({ service });
      continue;
    }
    const group = groups.get(service.deployment);
    if (group) group.push(service);
    else {
      const replicas = [service];
      groups.set(service.deployment, replicas);
      entries.push({ deployment: service.deployment, replicas });
    }
  }
  return entries;
}

/** The ids of the deployments `services` are replicas of (to ask for their records only when there are any). */
export const deploymentIdsOf = (services: { deployment?: string | null }[]): string[] => [...new Set(services.flatMap((s) => (s.deployment ? [s.deployment] : [])))];
