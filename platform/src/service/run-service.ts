import { mkdirSync } from "node:fs";
import type { AnyElysia } from "elysia";
import type { ServiceName } from "@svc/contracts";
import { homeLayout } from "../config";
import { readServiceEnv, type ServiceEnv } from "./service-env";
import { createServiceApp } from "./create-service-app";
import { exitOnConfigError } from "./exit-on-config-error";
import { listenUntilSignal } from "./listen";
import { hasStarterChannel } from "../net/listen-report";

export interface ServiceContext extends ServiceEnv {
  /** The service's own data folder, `$SVC_HOME_DIR/data/<service>`; created before features are built. */
  dataDir: string;
}

/**
 * Entry point of an internal service process: read the env, build the features, listen on loopback.
 * Under `svc start` (an IPC channel to it) a service whose port is taken takes another and says so.
 */
export function runService(name: ServiceName, buildFeatures: (ctx: ServiceContext) => AnyElysia[]) {
  const env = exitOnConfigError(() => readServiceEnv());
  const dataDir = homeLayout(env.settings.homeDir).dataDir(name);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const ctx: ServiceContext = { ...env, dataDir };
  const app = createServiceApp(name, env.internalSecret, buildFeatures(ctx));
  listenUntilSignal(app, name, env.bindHost, env.port, hasStarterChannel());
  return app;
}
