import { expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { isListeningMessage, retryWhilePortTaken } from "../src/net";

const CHILD = new URL("./fixtures/listening-child.ts", import.meta.url).pathname;

/** Starts the fixture with an IPC channel; resolves with the port it reported (or its exit code if it died first). */
async function startReporting(env: Record<string, string>) {
  const { promise, resolve } = Promise.withResolvers<number>();
  const child = Bun.spawn([process.execPath, CHILD], {
    env: { ...process.env, ...env },
    stdout: "ignore",
    stderr: "pipe",
    ipc: (message) => isListeningMessage(message) && resolve(message.port),
  });
  void child.exited.then((code) => resolve(-code - 1));
  const port = await promise;
  return { child, port, stop: () => (child.send("stop"), child.exited) };
}

const holdPort = () =>
  new Promise<Server>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
const portOf = (server: Server) => (server.address() as { port: number }).port;

test("a component started on port 0 reports the port it bound, and answers there", async () => {
  const component = await startReporting({ PORT: "0" });
  try {
    expect(component.port).toBeGreaterThan(0);
    expect(await (await fetch(`http://127.0.0.1:${component.port}/`)).text()).toBe(String(component.child.pid));
  } finally {
    await component.stop();
  }
});

test("components started at once never share a port", async () => {
  const components = await Promise.all(Array.from({ length: 8 }, () => startReporting({ PORT: "0" })));
  try {
    expect(components.every((c) => c.port > 0)).toBe(true);
    expect(new Set(components.map((c) => c.port)).size).toBe(components.length);
  } finally {
    await Promise.all(components.map((c) => c.stop()));
  }
});

test("asked for a port that is taken, a component that may move takes another and reports it; one that may not fails", async () => {
  const holder = await holdPort();
  try {
    const taken = String(portOf(holder));
    const moved = await startReporting({ PORT: taken, ANY_IF_TAKEN: "1" });
    try {
      expect(moved.port).toBeGreaterThan(0);
      expect(moved.port).not.toBe(portOf(holder));
      expect((await fetch(`http://127.0.0.1:${moved.port}/`)).ok).toBe(true);
    } finally {
      await moved.stop();
    }
    const fixed = await startReporting({ PORT: taken });
    expect(fixed.port).toBeLessThan(0); // it exited instead of reporting
  } finally {
    holder.close();
  }
});

test("a start told its port beforehand is retried with another port while the one picked is taken", async () => {
  const holder = await holdPort();
  try {
    const picks = [portOf(holder), portOf(holder), 0];
    const tried: number[] = [];
    const started = await retryWhilePortTaken(
      async () => picks.shift()!,
      async (port) => {
        tried.push(port);
        if (port === portOf(holder)) throw new Error("bind: address already in use");
        return "up";
      },
      (error) => String(error).includes("already in use"),
    );
    expect(started).toBe("up");
    expect(tried).toEqual([portOf(holder), portOf(holder), 0]);
    await expect(retryWhilePortTaken(async () => 1, async () => Promise.reject(new Error("no such image")), () => false)).rejects.toThrow("no such image");
  } finally {
    holder.close();
  }
});
