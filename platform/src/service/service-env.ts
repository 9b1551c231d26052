import { loadSettings, type Settings } from "../config";
import { readInternalSecret } from "./internal-secret";
import { parsePortVar } from "./parse-port-var";
import { readUpstreams, type Upstreams } from "./upstreams";

/** What the supervisor hands each internal service through its environment. */
export interface ServiceEnv {
  settings: Settings;
  /** Interface the service binds; loopback unless a container setup says otherwise. */
  bindHost: string;
  port: number;
  internalSecret: string;
  /** Every internal service's base URL, for calls to another service (see internalClient). */
  upstreams: Upstreams;
}

export function readServiceEnv(env: Record<string, string | undefined> = process.env): ServiceEnv {
  const internalSecret = readInternalSecret(env, "this service");
  return {
    settings: loadSettings(env),
    bindHost: env.SVC_SERVICE_HOST || "127.0.0.1",
    port: parsePortVar(env.SVC_SERVICE_PORT, "SVC_SERVICE_PORT"),
    internalSecret,
    upstreams: readUpstreams(env),
  };
}
