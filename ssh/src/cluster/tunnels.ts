import { createServer, type Server, type Socket } from "node:net";
import type { ClusterConnection } from "./connection";
import { TunnelSocket } from "./tunnel-socket";

interface Tunnel {
  server: Server;
  localPort: number;
  target: string;
  sockets: Set<Socket>;
}

/**
 * Local ports on 127.0.0.1 that reach a job's server through the profile's SSH connection. Each
 * accepted socket opens its own forwardOut channel on the connection as it is at that moment, so
 * after a reconnect the same local port works again without being re-created; one accepted while
 * the connection is being re-opened waits for it (see ClusterConnection.forward), and a request on
 * its way as the connection dropped goes again (see TunnelSocket).
 */
export class Tunnels {
  private readonly open = new Map<string, Tunnel>();
  private readonly opening = new Map<string, Promise<number>>();

  constructor(private readonly connection: Pick<ClusterConnection, "forward" | "droppedUnder">) {}

  /** The local port for `key` (one per job) forwarding to host:port; reused while the target is the same. */
  ensure(key: string, host: string, port: number): Promise<number> {
    const target = `${host}:${port}`;
    const existing = this.open.get(key);
    if (existing && existing.target === target) return Promise.resolve(existing.localPort);
    if (existing) this.close(key);
    const pending = this.opening.get(key);
    if (pending) return pending;
    const started = this.listen(key, host, port).finally(() => this.opening.delete(key));
    this.opening.set(key, started);
    return started;
  }

  private listen(key: string, host: string, port: number): Promise<number> {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      new TunnelSocket(socket, this.connection, host, port);
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        const localPort = typeof address === "object" && address ? address.port : 0;
        this.open.set(key, { server, localPort, target: `${host}:${port}`, sockets });
        resolve(localPort);
      });
    });
  }

  /** The local port of `key`'s tunnel, if one is open. */
  localPort(key: string): number | undefined {
    return this.open.get(key)?.localPort;
  }

  close(key: string): void {
    const tunnel = this.open.get(key);
    if (!tunnel) return;
    this.open.delete(key);
    tunnel.server.close();
    for (const socket of tunnel.sockets) socket.destroy();
  }

  closeAll(): void {
    for (const key of [...this.open.keys()]) this.close(key);
  }

  get size(): number {
    return this.open.size;
  }
}
