import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SERVICES } from "@svc/contracts";
import { readServiceEnv } from "@svc/platform";
import { readGatewayEnv } from "@svc/gateway";
import { REPO_ROOT } from "@svc/testing";

type ComposeService = {
  command: string[];
  environment: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  build?: unknown;
};
const compose = Bun.YAML.parse(readFileSync(join(REPO_ROOT, "compose.yaml"), "utf8")) as { services: Record<string, ComposeService> };

/** Resolves compose's ${VAR:-default} and ${VAR:?message} the way compose would with `given` set. */
function interpolate(env: Record<string, string>, given: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [
      key,
      String(value).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name, kind, rest) => given[name] ?? (kind === "-" ? rest : "")),
    ]),
  );
}

const given = { SVC_INTERNAL_SECRET: "s".repeat(64) };

describe("compose.yaml stays true to the code", () => {
  test("it runs the gateway and each service from this repo's entry points", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["gateway", ...SERVICES.map((s) => s.name)].sort());
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.build).toBeDefined();
      expect(service.command).toEqual(["bun", `${name}/src/main.ts`]);
      expect(existsSync(join(REPO_ROOT, service.command[1]))).toBe(true);
      expect(service.volumes).toEqual(["svc-home:/data"]);
      expect(service.environment.SVC_HOME_DIR).toBe("/data");
    }
  });

  test("only the gateway's port is published, on loopback", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === "gateway") expect(service.ports).toEqual(["127.0.0.1:${SVC_PORT:-8000}:8000"]);
      else expect(service.ports).toBeUndefined();
    }
  });

  test("each service's environment is accepted by the service's own start-up code", () => {
    for (const { name } of SERVICES) {
      const env = readServiceEnv(interpolate(compose.services[name].environment, given));
      expect(env.port).toBe(8100);
      expect(env.bindHost).toBe("0.0.0.0");
      expect(env.settings.homeDir).toBe("/data");
    }
  });

  test("the gateway and every service find each service at its compose address", () => {
    const gateway = readGatewayEnv(interpolate(compose.services.gateway.environment, given));
    expect(gateway.settings.port).toBe(8000);
    for (const { name } of SERVICES) {
      expect(gateway.upstreams[name]).toBe(`http://${name}:8100`);
      expect(readServiceEnv(interpolate(compose.services[name].environment, given)).upstreams).toEqual(gateway.upstreams);
    }
  });

  test("the image gets every workspace package the application imports", () => {
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
