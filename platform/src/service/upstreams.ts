import { SERVICES, upstreamVariable, type ServiceName } from "@svc/contracts";
import { ConfigError } from "../config";
import { hasStarterChannel, isUpstreamsMessage } from "../net/listen-report";

export type Upstreams = Record<ServiceName, string>;

/** How long a call waits for a service's address that `svc start` has not told yet. */
const UNKNOWN_UPSTREAM_WAIT_MS = 30_000;

const waiters = new Set<() => void>();

/**
 * Each internal service's base URL, from SVC_UPSTREAM_<NAME> (set by compose, or by `svc start` for
 * the services that listen already). Under `svc start` (an IPC channel to it) an address not known
 * yet is left out and comes later over the channel, as does a restarted service's new one: the
 * record is updated in place, so every holder of it sees the change.
 */
export function readUpstreams(env: Record<string, string | undefined>): Upstreams {
  const upstreams = {} as Upstreams;
  const toldLater = hasStarterChannel();
  for (const { name } of SERVICES) {
    const url = env[upstreamVariable(name)];
    if (!url && toldLater) continue;
    if (!url || !URL.canParse(url)) throw new ConfigError(`${upstreamVariable(name)} must be the base URL of ${name}, e.g. http://127.0.0.1:8101.`);
    upstreams[name] = url.replace(/\/$/, "");
  }
  if (toldLater) {
    process.on("message", (message) => {
      if (!isUpstreamsMessage(message)) return;
      Object.assign(upstreams, message.upstreams);
      for (const wake of waiters) wake();
    });
  }
  return upstreams;
}

/** A service's base URL, waiting (a while, or until `signal`) for `svc start` to tell it when it is not known yet. */
export async function upstreamOf(upstreams: Upstreams, name: ServiceName, signal?: AbortSignal | null): Promise<string | undefined> {
  if (upstreams[name] || !hasStarterChannel()) return upstreams[name];
  const deadline = Date.now() + UNKNOWN_UPSTREAM_WAIT_MS;
  while (!upstreams[name] && Date.now() < deadline && !signal?.aborted) {
    await new Promise<void>((resolve) => {
      const wake = () => {
        waiters.delete(wake);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(wake, deadline - Date.now());
      waiters.add(wake);
      signal?.addEventListener("abort", wake, { once: true });
    });
  }
  return upstreams[name];
}
