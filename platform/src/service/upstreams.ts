import { SERVICES, upstreamVariable, type ServiceName } from "@svc/contracts";
import { ConfigError } from "../config";

export type Upstreams = Record<ServiceName, string>;

/** Each internal service's base URL, from SVC_UPSTREAM_<NAME> (set by `svc start` or compose). */
export function readUpstreams(env: Record<string, string | undefined>): Upstreams {
  const upstreams = {} as Upstreams;
  for (const { name } of SERVICES) {
    const url = env[upstreamVariable(name)];
    if (!url || !URL.canParse(url)) throw new ConfigError(`${upstreamVariable(name)} must be the base URL of ${name}, e.g. http://127.0.0.1:8101.`);
    upstreams[name] = url.replace(/\/$/, "");
  }
  return upstreams;
}
