/**
 * A profiles.cfg as Blackfish writes it, in the shape of Blackfish's own test file: a local
 * `[default]` with `type =`, a slurm `[hpc]` with `home_dir`/`cache_dir`, and a `schema = slurm`
 * section with `host = localhost`. svc lists, shows and uses each as it is: `hpc` is reached
 * through ~/.ssh/config (its host name is an alias of the test cluster on 127.0.0.1), `ondemand`
 * on this machine without SSH.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import type { Model, Profile } from "@svc/contracts";
import { commitOf, ensureDocker, eventually, files, runSvc, startSlurmCluster, startSvc, tempHome, writeCachedSnapshot, writeKeyPair, type RunningSvc, type SshTestHost, RUNTIME_UPLOAD_TEST_MS } from "@svc/testing";

const CLUSTER_MODEL = "svc-tiny/tiny-llama-gguf";
const LOCAL_MODEL = "blackfish/tiny-gguf";

let cluster: SshTestHost;
let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;
let here: string;
let blackfishFile: string;

beforeAll(async () => {
  ensureDocker();
  here = tempHome("svc-blackfish-");
  const key = writeKeyPair(join(here, ".ssh"));
  cluster = await startSlurmCluster({ authorizedKeys: [key.publicKey], sharedRuntime: true });
  writeFileSync(join(here, ".ssh", "config"), `Host hpc.example.com\n  HostName 127.0.0.1\n  Port ${cluster.port}\n  IdentityFile ${key.privateKeyFile}\n`);
  const cache = join(here, ".blackfish", "cache");
  writeCachedSnapshot(join(cache, "models"), LOCAL_MODEL, commitOf("bf"), files.gguf(), ["main"]);
  const svcHome = join(here, "svc-home");
  mkdirSync(svcHome);
  blackfishFile = [
    "[default]",
    "type = local",
    `home_dir = ${join(here, ".blackfish")}`,
    `cache_dir = ${cache}`,
    "",
    "[hpc]",
    "type = slurm",
    "user = svc",
    "host = hpc.example.com",
    "home_dir = /home/svc/.blackfish",
    "cache_dir = /shared/cache",
    "",
    "[ondemand]",
    "schema = slurm",
    "user = svc",
    "host = localhost",
    `home_dir = ${join(here, ".blackfish")}`,
    `cache_dir = ${cache}`,
    "",
  ].join("\n");
  writeFileSync(join(svcHome, "profiles.cfg"), blackfishFile);
  app = await startSvc({ home: svcHome, env: { HOME: here } });
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), HOME: here };
  client = new SvcClient({ baseUrl: app.url });
}, 600_000);

afterAll(async () => {
  for (const service of (await client?.services.list({ all: true }).catch(() => [])) ?? []) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app?.cleanup();
  await cluster?.stop();
});

const run = (args: string[]) => runSvc(args, env);

describe("Blackfish's profiles.cfg, as it is", () => {
  test("svc profile ls lists the three profiles, home_dir/cache_dir read as each schema names them", async () => {
    const ls = await run(["profile", "ls", "--json"]);
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.stdout) as Profile[]).toEqual([
      { name: "default", schema: "local", home_dir: join(here, ".blackfish"), cache_dir: join(here, ".blackfish", "cache") },
      { name: "hpc", schema: "slurm", host: "hpc.example.com", user: "svc", home: "/home/svc/.blackfish", cache: "/shared/cache" },
      { name: "ondemand", schema: "slurm", host: "localhost", user: "svc", home: join(here, ".blackfish"), cache: join(here, ".blackfish", "cache") },
    ]);
    expect(readFileSync(join(app.home, "profiles.cfg"), "utf8")).toBe(blackfishFile);
  });

  test("svc profile show shows each", async () => {
    expect((await run(["profile", "show"])).stdout).toMatch(/^schema: +local$/m);
    const hpc = (await run(["profile", "show", "--name", "hpc"])).stdout;
    expect(hpc).toMatch(/^home: +\/home\/svc\/\.blackfish$/m);
    expect(hpc).toMatch(/^cache: +\/shared\/cache$/m);
    expect((await run(["profile", "show", "--name", "ondemand"])).stdout).toMatch(/^host: +localhost$/m);
  });

  test("each finds its models: default and ondemand on this machine, hpc over SSH through the ~/.ssh/config alias", async () => {
    for (const [profile, repo] of [["default", LOCAL_MODEL], ["ondemand", LOCAL_MODEL], ["hpc", CLUSTER_MODEL]]) {
      const ls = await run(["model", "ls", "--refresh", "--profile", profile, "--json"]);
      expect(ls.code).toBe(0);
      expect((JSON.parse(ls.stdout) as Model[]).filter((m) => m.profile === profile).map((m) => m.repo)).toContain(repo);
    }
  });

  test("each runs: a dry run on every profile, and a service on hpc, whose runtime and jobs go to its home_dir", async () => {
    const local = await run(["run", "text-generation", LOCAL_MODEL, "--dry-run"]);
    expect(local.code).toBe(0);
    expect(local.stdout).toStartWith("docker run ");
    const ondemand = await run(["run", "-p", "ondemand", "text-generation", LOCAL_MODEL, "--dry-run"]);
    expect(ondemand.code).toBe(0);
    expect(ondemand.stdout).toMatch(new RegExp(`^exec ${join(here, ".blackfish")}/runtime/[0-9a-f]{16}/bin/bun `, "m"));
    const hpcDry = await run(["run", "-p", "hpc", "text-generation", CLUSTER_MODEL, "--dry-run"]);
    expect(hpcDry.code).toBe(0);
    expect(hpcDry.stdout).toMatch(/^exec \/home\/svc\/\.blackfish\/runtime\/[0-9a-f]{16}\/bin\/bun /m);

    const started = await run(["run", "-p", "hpc", "text-generation", CLUSTER_MODEL, "--name", "from-blackfish"]);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    await eventually(async () => (await client.services.get(id)).status === "HEALTHY", 60_000, "the hpc service to be HEALTHY");
    expect((await cluster.execAsUser(`ls /home/svc/.blackfish/runtime /home/svc/.blackfish/jobs`)).output).toMatch(new RegExp(`^/home/svc/.blackfish/jobs:\\n${id}\\n`, "m"));
    const health = await fetch(`${app.url}/proxy/${id}/health`);
    expect(health.status).toBe(200);
    await client.services.stop(id);
  }, RUNTIME_UPLOAD_TEST_MS);
});
