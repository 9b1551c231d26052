import { ConfigError, loadSettings, type Settings } from "../config";
import { parsePortVar } from "./parse-port-var";

/** What the supervisor hands each internal service through its environment. */
export interface ServiceEnv {
  settings: Settings;
  /** Interface the service binds; loopback unless a container setup says otherwise. */
  bindHost: string;
  port: number;
  internalSecret: string;
}

export function readServiceEnv(env: Record<string, string | undefined> = process.env): ServiceEnv {
  const internalSecret = env.SVC_INTERNAL_SECRET;
  if (!internalSecret || internalSecret.length < 32) {
    throw new ConfigError("SVC_INTERNAL_SECRET is missing or shorter than 32 characters: internal services are started by `svc start`, which sets it.");
  }
  return {
    settings: loadSettings(env),
    bindHost: env.SVC_SERVICE_HOST || "127.0.0.1",
    port: parsePortVar(env.SVC_SERVICE_PORT, "SVC_SERVICE_PORT"),
    internalSecret,
  };
}
