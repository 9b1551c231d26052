/**
 * Engines that cannot be reached show up where people look (/api/health, `svc info`, the UI's
 * overview) without failing start-up, and `svc run` says plainly that Docker is not reachable.
 * This app's DOCKER_HOST names a socket that does not exist, and its slurm profile a port nothing
 * listens on; the Docker case that answers is in services.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { EngineReach } from "@svc/contracts";
import { eventually, freePort, runSvc, sh, startSvc, tempHome, TEXT_MODEL, type RunningSvc } from "@svc/testing";

let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;
let socket: string;

beforeAll(async () => {
  const home = tempHome("svc-reach-");
  socket = join(home, "no-docker.sock");
  const deadPort = await freePort();
  mkdirSync(join(home, "profile-home"), { recursive: true });
  mkdirSync(join(home, "cache"), { recursive: true });
  writeFileSync(
    join(home, "profiles.cfg"),
    `[default]\nschema = local\nhome_dir = ${join(home, "profile-home")}\ncache_dir = ${join(home, "cache")}\n\n` +
      `[gone]\nschema = slurm\nhost = 127.0.0.1\nport = ${deadPort}\nuser = nobody\nhome = /tmp/svc-gone\ncache = /tmp\n`,
  );
  app = await startSvc({ home, env: { DOCKER_HOST: `unix://${socket}` } });
  client = new SvcClient({ baseUrl: app.url });
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) };
  // The tiny models are made here: no Docker is needed to register them.
  sh([process.execPath, "runtimes/tiny-models/src/cli.ts", join(home, "profile-home", "models")]);
  await client.models.refresh("default");
}, 120_000);

afterAll(() => app?.cleanup());

const engines = async (): Promise<EngineReach[]> => (await client.health()).engines;
const settled = () => eventually(async () => (await engines()).every((e) => e.state !== "unknown") && (await engines()).length === 2, 30_000, "both engines checked");

describe("engine reachability", () => {
  test("start-up succeeds; /api/health stays ok and says which engine is not reachable, and why", async () => {
    await settled();
    const health = await client.health();
    expect(health.status).toBe("ok");
    const docker = health.engines.find((e) => e.engine === "docker")!;
    expect(docker).toMatchObject({ profile: null, target: socket, state: "unreachable" });
    expect(docker.detail).toContain(`there is no socket at ${socket}`);
    const slurm = health.engines.find((e) => e.engine === "slurm")!;
    expect(slurm).toMatchObject({ profile: "gone", state: "unreachable" });
    expect(slurm.target).toMatch(/^nobody@127\.0\.0\.1:\d+$/);
  });

  test("svc info lists each engine's reachability", async () => {
    await settled();
    const info = await runSvc(["info"], env);
    expect(info.code).toBe(0);
    expect(info.stdout).toMatch(/docker\s+\(local profiles\)\s+\S*no-docker\.sock\s+unreachable\s+the Docker Engine is not reachable: there is no socket at/);
    expect(info.stdout).toMatch(/slurm\s+gone\s+nobody@127\.0\.0\.1:\d+\s+unreachable/);
  });

  test("svc run says plainly that Docker is not reachable, not Bun's 'typo in the url'", async () => {
    const run = await runSvc(["run", "text-generation", TEXT_MODEL], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the Docker Engine is not reachable: there is no socket at ${socket}. Start Docker`);
    expect(run.stderr).not.toContain("typo");
    expect(run.stderr).not.toContain("ENOENT");
  });

  test("the UI's overview shows both engines as not reachable", async () => {
    await settled();
    const page = await (await fetch(`${app.url}/`)).text();
    expect(page).toMatch(/<tr data-engine="docker" data-profile="">[\s\S]*?not reachable[\s\S]*?there is no socket at/);
    expect(page).toMatch(/<tr data-engine="slurm" data-profile="gone">[\s\S]*?not reachable/);
  });
});
