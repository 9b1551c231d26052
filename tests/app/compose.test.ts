import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { SvcClient } from "@svc/client";
import { SERVICES } from "@svc/contracts";
import { readServiceEnv } from "@svc/platform";
import { readGatewayEnv } from "@svc/gateway";
import { buildRuntimeImages, dockerSocket, ensureDocker, eventually, freePort, REPO_ROOT, runSvc, tempHome, TEXT_MODEL } from "@svc/testing";

type ComposeService = {
  command: string[];
  environment: Record<string, string>;
  network_mode?: string;
  ports?: string[];
  volumes?: string[];
  image?: string;
};
const compose = Bun.YAML.parse(readFileSync(join(REPO_ROOT, "compose.yaml"), "utf8")) as { services: Record<string, ComposeService>; networks?: unknown };

/** Resolves compose's ${VAR:-default} and ${VAR:?message} the way compose would with `given` set. */
function interpolate(env: Record<string, string>, given: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [
      key,
      String(value).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name, kind, rest) => given[name] ?? (kind === "-" ? rest : "")),
    ]),
  );
}

const given = { SVC_INTERNAL_SECRET: "s".repeat(64), SVC_HOME_DIR: "/srv/svc", SVC_CACHE_DIR: "/srv/models" };

describe("compose.yaml stays true to the code", () => {
  test("it runs the gateway and each service from this repo's entry points, on the host's network only", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["gateway", ...SERVICES.map((s) => s.name)].sort());
    expect(compose.networks).toBeUndefined();
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.command).toEqual(["bun", `${name}/src/main.ts`]);
      expect(readFileSync(join(REPO_ROOT, service.command[1]), "utf8").length).toBeGreaterThan(0);
      expect(service.network_mode).toBe("host");
      expect(service.ports).toBeUndefined();
      expect(service.volumes).toContain("${SVC_HOME_DIR}:${SVC_HOME_DIR}");
    }
    expect(compose.services["orchestrator-svc"].volumes).toContain("${DOCKER_SOCKET:-/var/run/docker.sock}:/var/run/docker.sock");
  });

  test("each service's environment is accepted by its own start-up code, and all find each other on loopback", () => {
    const gateway = readGatewayEnv(interpolate(compose.services.gateway.environment, given));
    expect(gateway.settings).toMatchObject({ port: 8000, host: "127.0.0.1", homeDir: "/srv/svc" });
    const ports = new Set<number>([8000]);
    for (const { name } of SERVICES) {
      const env = readServiceEnv(interpolate(compose.services[name].environment, given));
      expect(env.bindHost).toBe("127.0.0.1");
      expect(env.settings.homeDir).toBe("/srv/svc");
      expect(env.upstreams).toEqual(gateway.upstreams);
      expect(gateway.upstreams[name]).toBe(`http://127.0.0.1:${env.port}`);
      ports.add(env.port);
    }
    expect(ports.size).toBe(4);
  });

  test("the application's image gets every workspace package its processes import (the Dockerfile's build)", () => {
    expect(readFileSync(join(REPO_ROOT, "Dockerfile"), "utf8")).toContain("COPY . .");
    const ignored = readFileSync(join(REPO_ROOT, ".dockerignore"), "utf8").split("\n").map((l) => l.trim());
    // The packages the processes of the image run, and what they depend on at run time (not their tests' packages).
    const workspaces = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { workspaces: string[] }).workspaces;
    const manifests = new Map(workspaces.map((dir) => [JSON.parse(readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8")).name as string, { dir, ...JSON.parse(readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8")) }]));
    const needed = new Set<string>();
    const visit = (name: string) => {
      const manifest = manifests.get(name);
      if (!manifest || needed.has(name)) return;
      needed.add(name);
      for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency);
    };
    for (const entry of ["@svc/cli", "@svc/gateway", ...SERVICES.map((s) => `@svc/${s.name}`)]) visit(entry);
    expect(needed.size).toBeGreaterThan(6);
    for (const name of needed) {
      const dir = manifests.get(name)!.dir as string;
      expect(ignored.filter((line) => line && (dir === line || dir.startsWith(`${line}/`)))).toEqual([]);
    }
    expect(ignored).toContain("runtimes");
  });
});

/**
 * The real thing, with Debian's docker-compose (1.29, installed by tests/setup): images built
 * here without a registry, up, a tiny model run through it and chatted with, down.
 */
describe("compose.yaml deploys a working application", () => {
  const base = tempHome("svc-compose-");
  const project = `svc-compose-test-${process.pid}`;
  const home = join(base, "svc-home");
  const cache = join(base, "models-cache");
  let env: Record<string, string>;
  let cli: Record<string, string>;
  let url = "";
  let serviceId = "";

  const composeCmd = (...args: string[]) => {
    const result = Bun.spawnSync(["docker-compose", "-p", project, "-f", join(REPO_ROOT, "compose.yaml"), ...args], { env, stdout: "pipe", stderr: "pipe" });
    return { code: result.exitCode, output: `${result.stdout}${result.stderr}` };
  };
  const sh = (command: string[]) => {
    const result = Bun.spawnSync(command, { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed:\n${result.stderr}`);
  };

  beforeAll(async () => {
    if (!Bun.which("docker-compose")) throw new Error("docker-compose is missing: tests/setup/prepare.sh installs Debian's docker-compose package.");
    ensureDocker();
    // The runtime images built from this tree, pinned by content tag (another checkout may retag :latest).
    const runtimes = buildRuntimeImages().env;
    sh([process.execPath, "images/build.ts", "app"]);
    mkdirSync(home, { recursive: true });
    mkdirSync(cache, { recursive: true });
    mkdirSync(join(base, "user", ".ssh"), { recursive: true });
    const [port, profilePort, modelPort, orchestratorPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    url = `http://127.0.0.1:${port}`;
    env = {
      ...(process.env as Record<string, string>),
      HOME: join(base, "user"),
      SVC_HOME_DIR: home,
      SVC_CACHE_DIR: cache,
      SVC_INTERNAL_SECRET: crypto.randomUUID().replaceAll("-", "").repeat(2),
      SVC_HOST: "127.0.0.1",
      SVC_PORT: String(port),
      SVC_PROFILE_SVC_PORT: String(profilePort),
      SVC_MODEL_SVC_PORT: String(modelPort),
      SVC_ORCHESTRATOR_SVC_PORT: String(orchestratorPort),
      DOCKER_SOCKET: dockerSocket(),
      ...runtimes,
    };
    cli = { SVC_HOME_DIR: home, SVC_HOST: "127.0.0.1", SVC_PORT: String(port) };
  }, 600_000);

  afterAll(async () => {
    if (serviceId) Bun.spawnSync(["docker", "rm", "-f", `svc-${serviceId}`], { stdout: "ignore", stderr: "ignore" });
    if (env) composeCmd("down", "--timeout", "5");
    rmSync(base, { recursive: true, force: true });
  });

  test("up, svc run a tiny model through it, chat, down", async () => {
    const up = composeCmd("up", "-d", "--no-build");
    expect(up.code, up.output).toBe(0);
    await eventually(async () => (await fetch(`${url}/api/health`)).status === 200, 60_000, "the composed application to be healthy");

    const init = await runSvc(["init", "--schema", "local", "--home-dir", join(home, "profile-home"), "--cache-dir", cache, "--yes"], cli);
    expect(init.code, init.stderr).toBe(0);
    sh([process.execPath, "runtimes/tiny-models/src/cli.ts", join(home, "profile-home", "models")]);
    const models = await runSvc(["model", "ls", "--refresh"], cli);
    expect(models.code, models.stderr).toBe(0);
    expect(models.stdout).toContain(TEXT_MODEL);

    const run = await runSvc(["run", "text-generation", TEXT_MODEL, "--name", "composed"], cli);
    expect(run.code, run.stderr).toBe(0);
    serviceId = run.stdout.trim();
    const client = new SvcClient({ baseUrl: url });
    await eventually(async () => (await client.services.get(serviceId)).status === "HEALTHY", 90_000, "the service launched by the composed orchestrator to be HEALTHY");
    const openai = new OpenAI({ baseURL: `${url}/proxy/${serviceId}/v1`, apiKey: "unused" });
    const answer = await openai.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 8, temperature: 0 });
    expect(answer.object).toBe("chat.completion");
    expect(answer.usage!.completion_tokens).toBeGreaterThan(0);

    const rm = await runSvc(["rm", serviceId, "--force", "--yes"], cli);
    expect(rm.code, rm.stderr).toBe(0);
    const down = composeCmd("down", "--timeout", "5");
    expect(down.code, down.output).toBe(0);
    const left = Bun.spawnSync(["docker", "ps", "-aq", "--filter", `label=com.docker.compose.project=${project}`], { stdout: "pipe" }).stdout.toString().trim();
    expect(left).toBe("");
    expect(await fetch(`${url}/api/health`).then(() => "answers", () => "gone")).toBe("gone");
  }, 300_000);
});
