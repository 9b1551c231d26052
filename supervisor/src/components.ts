import { SERVICES, type ServiceName } from "@svc/contracts/topology";

/** The processes `svc start` runs: the three services, then the gateway in front of them. */
export const SERVICE_ENTRIES: Record<ServiceName, string> = Object.fromEntries(
  SERVICES.map(({ name }) => [name, Bun.resolveSync(`@svc/${name}/main`, import.meta.dir)]),
) as Record<ServiceName, string>;

export const GATEWAY_ENTRY = Bun.resolveSync("@svc/gateway/main", import.meta.dir);

/**
 * Requests the gateway's fetch keeps open at once. Bun's default, 256, would queue every stream past
 * the 256th behind those open (the gateway relays each with one fetch); Bun reads the limit from
 * BUN_CONFIG_MAX_HTTP_REQUESTS when the process starts. A value in svc's own environment wins.
 */
export const GATEWAY_OPEN_REQUESTS = "16384";
