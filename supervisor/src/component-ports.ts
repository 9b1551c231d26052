import { SERVICES, upstreamVariable, type ServiceName } from "@svc/contracts/topology";
import { isListeningMessage, type UpstreamsMessage } from "@svc/platform/net";

const isService = (name: string): name is ServiceName => SERVICES.some((service) => service.name === name);

/**
 * The ports `svc start`'s components bound and reported (each binds port 0, or the port it had
 * before its restart, so no port is picked before it is bound), and the services' addresses that
 * follow: every report is passed on to all components, so the gateway and the services learn a
 * restarted service's new port.
 */
export class ComponentPorts {
  readonly upstreams: Partial<Record<ServiceName, string>> = {};
  private readonly ports = new Map<string, number>();
  private readonly waiting = new Map<string, Array<(port: number) => void>>();

  constructor(private readonly onReport: (name: string, port: number, tellAll: UpstreamsMessage) => void) {}

  /** The port `name` got last, to ask for again at its restart; undefined before its first report. */
  portOf(name: string): number | undefined {
    return this.ports.get(name);
  }

  /** SVC_UPSTREAM_<NAME> of every service that has reported, for a process about to start. */
  upstreamEnv(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.upstreams).map(([name, url]) => [upstreamVariable(name as ServiceName), url]));
  }

  /** A message from a component's IPC channel: a port report is recorded and passed on. */
  received(name: string, message: unknown) {
    if (!isListeningMessage(message)) return;
    this.ports.set(name, message.port);
    if (isService(name)) this.upstreams[name] = `http://127.0.0.1:${message.port}`;
    this.onReport(name, message.port, { type: "upstreams", upstreams: { ...this.upstreams } });
    for (const resolve of this.waiting.get(name) ?? []) resolve(message.port);
    this.waiting.delete(name);
  }

  /** The port `name` reports first (or already reported); undefined after `timeoutMs` or once `signal` aborts. */
  async reported(name: string, timeoutMs: number, signal?: AbortSignal): Promise<number | undefined> {
    const known = this.ports.get(name);
    if (known !== undefined) return known;
    const { promise, resolve } = Promise.withResolvers<number | undefined>();
    this.waiting.set(name, [...(this.waiting.get(name) ?? []), resolve]);
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    signal?.addEventListener("abort", () => resolve(undefined), { once: true });
    const port = await promise;
    clearTimeout(timer);
    return port;
  }
}
