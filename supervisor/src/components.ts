import { SERVICES, type ServiceName } from "@svc/contracts/topology";

/** The processes `svc start` runs: the three services, then the gateway in front of them. */
export const SERVICE_ENTRIES: Record<ServiceName, string> = Object.fromEntries(
  SERVICES.map(({ name }) => [name, Bun.resolveSync(`@svc/${name}/main`, import.meta.dir)]),
) as Record<ServiceName, string>;

export const GATEWAY_ENTRY = Bun.resolveSync("@svc/gateway/main", import.meta.dir);
