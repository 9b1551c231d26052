import type { ServiceName } from "@svc/contracts";

/**
 * What a component started by `svc start` tells its supervisor over Bun's IPC channel: the port it
 * bound (the kernel's choice when it was asked for port 0), so no port is picked before it is bound.
 */
export interface ListeningMessage {
  type: "listening";
  port: number;
}

/** What the supervisor tells its components: every service's base URL, again whenever one changed. */
export interface UpstreamsMessage {
  type: "upstreams";
  upstreams: Partial<Record<ServiceName, string>>;
}

export const isListeningMessage = (message: unknown): message is ListeningMessage =>
  typeof message === "object" && message !== null && (message as ListeningMessage).type === "listening" && Number.isInteger((message as ListeningMessage).port);

export const isUpstreamsMessage = (message: unknown): message is UpstreamsMessage =>
  typeof message === "object" && message !== null && (message as UpstreamsMessage).type === "upstreams" && typeof (message as UpstreamsMessage).upstreams === "object";

/** Whether this process was started with an IPC channel to its starter (`svc start`, a test). */
export const hasStarterChannel = (): boolean => typeof process.send === "function";

/** Tells whoever started this process (over IPC, when there is a channel) which port it listens on. */
export function reportListening(port: number) {
  if (hasStarterChannel()) process.send!({ type: "listening", port } satisfies ListeningMessage);
}

const inUse = (error: unknown) => /EADDRINUSE|in use/i.test(`${(error as NodeJS.ErrnoException)?.code ?? ""} ${String(error)}`);

/**
 * Binds `port` through `listen` (which returns the port bound); when that port is taken and the
 * component may move (`anyIfTaken`: a restarted service asking for its previous port), binds the
 * kernel's choice instead, which its starter learns from `reportListening`.
 */
export function listenOnPort(listen: (port: number) => number, port: number, anyIfTaken: boolean): number {
  try {
    return listen(port);
  } catch (error) {
    if (!anyIfTaken || port === 0 || !inUse(error)) throw error;
    return listen(0);
  }
}
