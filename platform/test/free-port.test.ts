import { expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { freePort } from "../src/net/free-port";

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });

test("free ports come from below the kernel's ephemeral range, and can be bound", async () => {
  const [low] = (await Bun.file("/proc/sys/net/ipv4/ip_local_port_range").text()).trim().split(/\s+/).map(Number);
  for (let i = 0; i < 20; i++) {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(low!);
    const server = await listen(port);
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a port something listens on is never handed out", async () => {
  // A narrow range, two thirds of it taken: a pick that skipped the bind check would soon hit one.
  const from = 20_000 + Math.floor(Math.random() * 10_000);
  const held: Server[] = [];
  for (let port = from; port < from + 20; port++) held.push(await listen(port).catch(() => undefined as unknown as Server));
  const taken = new Set(held.filter(Boolean).map((server) => (server.address() as { port: number }).port));
  try {
    for (let i = 0; i < 100; i++) {
      const port = await freePort("127.0.0.1", [from, from + 29]);
      expect(taken.has(port)).toBe(false);
      expect(port === 0 || (port >= from && port <= from + 29) || port >= 32_768).toBe(true);
    }
  } finally {
    await Promise.all(held.filter(Boolean).map((server) => new Promise((resolve) => server.close(resolve))));
  }
});

test("processes picking at the same time from the same few ports never get the same one", async () => {
  // Eight processes, eight ports: without the machine-wide mark of a port just handed out, two of
  // them would almost surely draw the same free port (each bind check passes until someone binds).
  const from = 20_000 + Math.floor(Math.random() * 12_000);
  const script = `import { freePort } from ${JSON.stringify(new URL("../src/net/free-port.ts", import.meta.url).pathname)}; console.log(await freePort("127.0.0.1", [${from}, ${from + 7}]));`;
  const picks = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
      const out = await new Response(proc.stdout).text();
      await proc.exited;
      return Number(out.trim());
    }),
  );
  expect(picks.every((port) => port > 0)).toBe(true);
  expect(new Set(picks).size).toBe(8);
});
