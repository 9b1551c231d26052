import { mkdirSync } from "node:fs";
import { SERVICES } from "@svc/contracts/topology";
import { appUrl, homeLayout, isLoopbackHost, type Settings } from "@svc/platform/config";
import { randomSecret } from "@svc/platform/security";
import { acquireLock, processStartTicks, releaseLock, updateLock, type RunRecord } from "./lock";
import { portInUse } from "@svc/platform/net";
import { ComponentPorts } from "./component-ports";
import { decideAuthToken } from "./auth-token";
import { componentEntries, GATEWAY_OPEN_REQUESTS } from "./components";
import { SupervisedProcess } from "./supervised-process";
import { servicesOnExit } from "./services-on-exit";
import { waitReady } from "./wait-ready";

export class StartError extends Error {
  override name = "StartError";
}

export interface Output {
  info(line: string): void;
  error(line: string): void;
}

const READY_TIMEOUT_MS = 30_000;

/** An address a local client can connect to for the host the gateway binds. */
function probeHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "::1";
  return host;
}

function settingsEnv(settings: Settings, token: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== "SVC_DEV_MODE" && key !== "SVC_TOKEN" && key !== "SVC_AUTH_TOKEN") env[key] = value;
  }
  Object.assign(env, {
    SVC_HOST: settings.host,
    SVC_PORT: String(settings.port),
    SVC_HOME_DIR: settings.homeDir,
    SVC_DEBUG: String(settings.debug),
    SVC_ALLOWED_HOSTS: settings.allowedHosts.join(","),
  });
  if (token) env.SVC_AUTH_TOKEN = token;
  return env;
}

export interface StartOptions {
  /** The user confirmed (`--yes`) serving without authentication beyond this machine. */
  openDebugConfirmed?: boolean;
  /** Stop every live inference service before exiting, instead of leaving them running. */
  stopServicesOnExit?: boolean;
}

/**
 * Debug mode has no authentication, which is safe only while nothing but this machine can reach
 * the application: serving it on another address needs the user's explicit yes.
 */
export function checkExposure(settings: Settings, options: StartOptions, out: Output) {
  if (!settings.debug || isLoopbackHost(settings.host)) return;
  const risk = `debug mode is on (no authentication) and --host ${settings.host} serves svc beyond this machine: anyone who reaches port ${settings.port} could start containers and read files as you.`;
  if (!options.openDebugConfirmed) {
    throw new StartError(`Refusing to start: ${risk} Turn debug off (--debug false; svc start then prints an auth token), serve on localhost, or pass --yes if every machine on this network is trusted.`);
  }
  out.error(`WARNING: ${risk}`);
}

/**
 * `svc start`: takes the home folder's lock, starts the services and the gateway as supervised
 * child processes, and resolves once the gateway reports every service up. Its `shutdown` first
 * says which inference services keep running (or stops them), then stops the processes.
 */
export async function startApp(settings: Settings, out: Output, signal?: AbortSignal, options: StartOptions = {}) {
  checkExposure(settings, options, out);
  const layout = homeLayout(settings.homeDir);
  mkdirSync(layout.logsDir, { recursive: true, mode: 0o700 });
  let url = appUrl(settings);
  const record: RunRecord = {
    pid: process.pid,
    pidStartTicks: processStartTicks(process.pid),
    url,
    homeDir: settings.homeDir,
    startedAt: new Date().toISOString(),
    components: {},
  };
  acquireLock(layout.lockFile, record);
  let stopped = false;
  const processes: SupervisedProcess[] = [];
  let internalSecret = "";
  // Every process learns every service's address: the gateway forwards to them, and a service
  // may ask another (model-svc asks profile-svc for a profile).
  const ports = new ComponentPorts((name, port, tellAll) => {
    record.components[name] = { pid: record.components[name]?.pid ?? null, port };
    if (!stopped) updateLock(layout.lockFile, record);
    for (const p of processes) p.send(tellAll);
  });

  const stopProcesses = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(processes.map((p) => p.stop()));
    releaseLock(layout.lockFile);
  };
  const shutdown = async () => {
    if (stopped) return;
    const orchestrator = ports.upstreams["orchestrator-svc"];
    if (orchestrator) await servicesOnExit(orchestrator, internalSecret, options.stopServicesOnExit ?? false, out.info);
    await stopProcesses();
  };

  try {
    if (settings.port !== 0 && (await portInUse(settings.host, settings.port))) {
      throw new StartError(`Port ${settings.port} on ${settings.host} is already in use by another program: stop it, or pick another port with --port or SVC_PORT.`);
    }
    const { token, generated } = decideAuthToken(settings, layout.tokenFile);
    const baseEnv = settingsEnv(settings, token);
    internalSecret = randomSecret(32);
    baseEnv.SVC_INTERNAL_SECRET = internalSecret;
    baseEnv.SVC_SUPERVISOR_PID = String(process.pid);

    const log = (message: string) => out.info(`[svc ${new Date().toISOString()}] ${message}`);
    const events = {
      spawned: (name: string, pid: number) => {
        record.components[name] = { pid, port: record.components[name]?.port ?? null };
        if (!stopped) updateLock(layout.lockFile, record);
      },
      message: (name: string, message: unknown) => ports.received(name, message),
    };
    const entries = componentEntries();
    // Each binds port 0 at first, and at a restart the port it had (a service takes another if that is taken).
    for (const { name } of SERVICES) {
      const env = () => ({ ...baseEnv, ...ports.upstreamEnv(), SVC_SERVICE_PORT: String(ports.portOf(name) ?? 0) });
      processes.push(new SupervisedProcess({ name, entry: entries[name], env, logFile: layout.logFile(name) }, log, events));
    }
    const gatewayEnv = () => ({
      BUN_CONFIG_MAX_HTTP_REQUESTS: GATEWAY_OPEN_REQUESTS,
      ...baseEnv,
      ...ports.upstreamEnv(),
      SVC_PORT: String(ports.portOf("gateway") ?? settings.port),
    });
    processes.push(new SupervisedProcess({ name: "gateway", entry: entries.gateway, env: gatewayEnv, logFile: layout.logFile("gateway") }, log, events));
    for (const p of processes) p.start();

    const started = Date.now();
    const gatewayPort = await ports.reported("gateway", READY_TIMEOUT_MS, signal);
    if (gatewayPort !== undefined && settings.port === 0) {
      url = appUrl({ host: settings.host, port: gatewayPort });
      record.url = url;
      if (!stopped) updateLock(layout.lockFile, record);
    }
    const probeUrl = appUrl({ host: probeHost(settings.host), port: gatewayPort ?? settings.port });
    const ready = gatewayPort !== undefined && (await waitReady(probeUrl, READY_TIMEOUT_MS - (Date.now() - started), () => !stopped && !signal?.aborted));
    if (signal?.aborted) throw new StartError("Interrupted while starting; everything started so far was stopped.");
    if (!ready) {
      throw new StartError(`svc did not come up within ${READY_TIMEOUT_MS / 1000} s; see the logs in ${layout.logsDir}.`);
    }
    out.info(`svc is ready at ${url} (home ${settings.homeDir}, debug ${settings.debug ? "on: no authentication" : "off: auth token required"})`);
    if (generated) {
      out.info(`Auth token (shown once; also saved with mode 0600 in ${layout.tokenFile}): ${token}`);
    }
    return { url, shutdown, token };
  } catch (error) {
    await stopProcesses();
    throw error;
  }
}
