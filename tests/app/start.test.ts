import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readProcStat } from "@svc/platform/process";
import { eventually, processExists, runSvc, startSvc, tempHome, type RunningSvc } from "@svc/testing";

/** Local addresses (hex, as in /proc/net/tcp) that a listening socket on `port` is bound to. */
function listeningAddresses(port: number): string[] {
  const portHex = port.toString(16).toUpperCase().padStart(4, "0");
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[1]?.endsWith(`:${portHex}`) && f[3] === "0A")
    .map((f) => f[1].split(":")[0]);
}

describe("svc start", () => {
  let app: RunningSvc;
  beforeAll(async () => {
    app = await startSvc();
  });
  afterAll(() => app.cleanup());

  test("prints one ready line with the URL and serves /api/info", async () => {
    expect(app.output()).toContain(`svc is ready at http://127.0.0.1:${app.port}`);
    const info = await (await fetch(`${app.url}/api/info`)).json();
    expect(info).toMatchObject({ name: "svc", host: "127.0.0.1", port: app.port, homeDir: app.home, debug: true });
    expect(typeof info.version).toBe("string");
  });

  test("reports every service up in /api/health", async () => {
    const response = await fetch(`${app.url}/api/health`);
    expect(response.status).toBe(200);
    const health = await response.json();
    expect(health.status).toBe("ok");
    expect(health.services.map((s: { name: string }) => s.name).sort()).toEqual(["model-svc", "orchestrator-svc", "profile-svc"]);
  });

  test("each service has its own loopback port, data folder and refuses requests without the internal secret", async () => {
    const { components } = app.lock();
    const ports = new Set<number>();
    for (const name of ["profile-svc", "model-svc", "orchestrator-svc"]) {
      const { port } = components[name];
      ports.add(port);
      expect(listeningAddresses(port)).toEqual(["0100007F"]); // 127.0.0.1 only
      expect(existsSync(join(app.home, "data", name))).toBe(true);
      for (const path of ["/health", "/openapi.json", "/api/profiles"]) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(response.status).toBe(401);
        expect((await response.json()).error).toBe("internal_secret_required");
      }
      const wrong = await fetch(`http://127.0.0.1:${port}/health`, { headers: { "x-svc-internal-secret": "x".repeat(43) } });
      expect(wrong.status).toBe(401);
    }
    expect(ports.size).toBe(3);
  });

  test("a second svc start on the same home folder is refused, saying where the first runs", async () => {
    const second = await runSvc(["start", "--port", String(app.port + 1)], { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1" });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("already running");
    expect(second.stderr).toContain(app.home);
    expect(second.stderr).toContain(`pid ${app.proc.pid}`);
    expect(second.stderr).toContain(app.url);
  });

  test("a service that dies is restarted within 2 s and the restart is logged", async () => {
    const before = app.lock().components["model-svc"].pid!;
    process.kill(before, "SIGKILL");
    await eventually(() => {
      const pid = app.lock().components["model-svc"].pid;
      return pid !== null && pid !== before;
    }, 2000, "model-svc to be respawned");
    const after = app.lock().components["model-svc"].pid!;
    await eventually(async () => (await fetch(`${app.url}/api/health`)).status === 200, 5000, "health to be ok again");
    expect(processExists(after)).toBe(true);
    expect(app.output()).toMatch(new RegExp(`model-svc \\(pid ${before}\\) stopped with signal SIGKILL; restarting`));
  });

  test("asked for its old port after a crash and finding it taken, a service takes another, and the gateway follows", async () => {
    const { pid: before, port: oldPort } = app.lock().components["model-svc"];
    // Stopped, the supervisor cannot restart model-svc before the test holds its old port.
    process.kill(app.proc.pid, "SIGSTOP");
    let holder: { stop(closeActive?: boolean): void } | undefined;
    try {
      process.kill(before!, "SIGKILL");
      await eventually(() => {
        holder = Bun.listen({ hostname: "127.0.0.1", port: oldPort, socket: { data() {} } });
        return true;
      }, 5000, "model-svc's old port to be free");
    } finally {
      process.kill(app.proc.pid, "SIGCONT");
    }
    try {
      await eventually(() => app.lock().components["model-svc"].port !== oldPort, 10_000, "model-svc to report a new port");
      const { port } = app.lock().components["model-svc"];
      expect(listeningAddresses(port)).toEqual(["0100007F"]);
      await eventually(async () => (await fetch(`${app.url}/api/models`)).status === 200, 10_000, "the gateway to forward to model-svc's new port");
      expect((await (await fetch(`${app.url}/api/health`)).json()).status).toBe("ok");
    } finally {
      holder?.stop(true);
    }
  });
});

describe("two svc starts at once", () => {
  test("never share a port: each component binds its own and reports it", async () => {
    const apps = await Promise.all([startSvc(), startSvc()]);
    try {
      const ports = apps.flatMap((a) => Object.values(a.lock().components).map((c) => c.port));
      expect(ports).toHaveLength(8);
      expect(new Set(ports).size).toBe(8);
      for (const a of apps) {
        expect(a.lock().components.gateway.port).toBe(a.port);
        expect((await (await fetch(`${a.url}/api/health`)).json()).status).toBe("ok");
      }
    } finally {
      await Promise.all(apps.map((a) => a.cleanup()));
    }
  });
});

describe("svc start lifecycle", () => {
  test("SIGTERM stops every process and releases the lock", async () => {
    const app = await startSvc();
    const pids = Object.values(app.lock().components).map((c) => c.pid!);
    expect(pids).toHaveLength(4);
    expect(await app.stop("SIGTERM")).toBe(0);
    expect(app.output()).toContain("svc stopped.");
    for (const pid of pids) expect(processExists(pid)).toBe(false);
    expect(existsSync(join(app.home, "svc.lock"))).toBe(false);
    await app.cleanup();
  });

  test("Ctrl-C (SIGINT to the whole process group) stops everything once, without restarts", async () => {
    const app = await startSvc({ wrapper: ["setsid"] });
    const pids = Object.values(app.lock().components).map((c) => c.pid!);
    process.kill(-app.proc.pid, "SIGINT");
    expect(await app.proc.exited).toBe(0);
    await app.waitForOutput("svc stopped.");
    expect(app.output()).toContain("Received SIGINT; stopping svc");
    expect(app.output()).not.toContain("restarting");
    for (const pid of pids) expect(processExists(pid)).toBe(false);
    await app.cleanup();
  });

  test("a stale lock from a killed run does not block the next start", async () => {
    const home = tempHome();
    const first = await startSvc({ home });
    const children = Object.values(first.lock().components).map((c) => c.pid!);
    await first.stop("SIGKILL");
    expect(existsSync(join(home, "svc.lock"))).toBe(true);
    // The orphaned children notice their supervisor is gone and exit.
    await eventually(() => children.every((pid) => !processExists(pid)), 5000, "orphans to exit");
    const second = await startSvc({ home });
    expect(second.lock().pid).toBe(second.proc.pid!);
    await second.cleanup();
  });

  test("kill -9 of the whole process group, then an immediate start: the unreaped (zombie) holder does not block it", async () => {
    const home = tempHome();
    // svc start in a process group of its own, under a parent (`sleep`) that never reaps it, so it
    // stays a zombie after the kill, as it does for a moment under a shell.
    const first = await startSvc({ home, wrapper: ["sh", "-c", 'setsid "$@" & exec sleep 600', "sh"] });
    try {
      const holder = first.lock().pid;
      expect(holder).not.toBe(first.proc.pid);
      process.kill(-holder, "SIGKILL");
      await eventually(() => readProcStat(holder)?.state === "Z", 5000, "the killed svc start to be a zombie");
      const second = await startSvc({ home });
      expect(second.lock().pid).toBe(second.proc.pid!);
      expect(readProcStat(holder)?.state).toBe("Z");
      await second.cleanup();
    } finally {
      await first.stop("SIGKILL");
    }
  });

  test("a port already in use stops start-up with a clear message", async () => {
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("busy") });
    const port = holder.port;
    const home = tempHome();
    const result = await runSvc(["start", "--port", String(port)], { SVC_HOME_DIR: home, SVC_HOST: "127.0.0.1" });
    holder.stop(true);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(existsSync(join(home, "svc.lock"))).toBe(false);
  });
});
