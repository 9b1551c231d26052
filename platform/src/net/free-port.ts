import { closeSync, mkdirSync, openSync, statSync, utimesSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Free ports are picked at random below Linux's ephemeral range (32768–60999), which is where the
 * kernel takes the ports of outgoing connections and of `listen(0)`. A port picked here is bound by
 * its user a moment later (a child process, a container): in between, neither the kernel nor
 * another svc (or test run) picking at the same time is likely to take it, as they were when
 * every pick was the kernel's next port.
 */
const PICK_FROM = 20_000;
const PICK_TO = 32_767;
const TRIES = 100;
/**
 * A port handed out is not handed out again on this machine for this long, by any process (two
 * svc, the suite's test files side by side): the bind check alone cannot see a port that another
 * process picked a moment ago and whose container has not bound it yet.
 */
const RESERVED_MS = 30_000;
const PICKS_DIR = join(tmpdir(), "svc-port-picks");

/** Marks `port` as just handed out; false when another pick took it within RESERVED_MS. Without a usable folder, every port counts as free. */
function reserve(port: number): boolean {
  const file = join(PICKS_DIR, String(port));
  try {
    mkdirSync(PICKS_DIR, { recursive: true, mode: 0o1777 });
    closeSync(openSync(file, "wx", 0o666));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return true;
  }
  try {
    if (Date.now() - statSync(file).mtimeMs < RESERVED_MS) return false;
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // Another pick is taking the same stale mark over right now, or it belongs to another user: let the bind check decide.
  }
  return true;
}

/** Whether `port` on `host` can be bound now. */
function bindable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The kernel's choice of a free port, for when the range above is full. */
function kernelPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** A TCP port on `host` that is free now, for a process or container that will bind it shortly. */
export async function freePort(host = "127.0.0.1", [from, to]: [number, number] = [PICK_FROM, PICK_TO]): Promise<number> {
  for (let i = 0; i < TRIES; i++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if ((await bindable(host, port)) && reserve(port)) return port;
  }
  return kernelPort(host);
}

/** Whether something already listens on host:port (then the gateway could not bind it). */
export function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "EADDRINUSE"));
    server.listen(port, host, () => server.close(() => resolve(false)));
  });
}
