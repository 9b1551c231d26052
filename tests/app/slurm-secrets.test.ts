/**
 * A Slurm service's API key stays its user's: on the test cluster (images/slurm-test, reached over
 * SSH on 127.0.0.1), the job's work folder is 0700 and its files 0600, the key is in no job script
 * and in no command line on the node, and the runtime still takes requests with the key only.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import { ensureDocker, eventually, runSvc, startSlurmCluster, startSvc, tempHome, writeKeyPair, type RunningSvc, type SshTestHost } from "@svc/testing";

const TEXT_MODEL = "svc-tiny/tiny-llama-gguf";
const KEY = "sk-slurm-secret-7c2e91";

let cluster: SshTestHost;
let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;

beforeAll(async () => {
  ensureDocker();
  const localHome = tempHome("svc-slurm-secrets-");
  const key = writeKeyPair(join(localHome, ".ssh"));
  cluster = await startSlurmCluster({ authorizedKeys: [key.publicKey] });
  app = await startSvc({ env: { HOME: localHome } });
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), HOME: localHome };
  client = new SvcClient({ baseUrl: app.url });
  mkdirSync(join(app.home, "cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: join(app.home, "local-home"), cache_dir: join(app.home, "cache") });
  const add = await runSvc(
    ["profile", "add", "--name", "cluster", "--schema", "slurm", "--host", "127.0.0.1", "--port", String(cluster.port), "--user", "svc", "--home", "~/svc", "--cache", "/shared/cache", "--identity-file", key.privateKeyFile, "--yes"],
    env,
  );
  expect(add.code).toBe(0);
  await client.models.refresh("cluster");
}, 600_000);

afterAll(async () => {
  for (const service of (await client?.services.list({ all: true }).catch(() => [])) ?? []) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app?.cleanup();
  await cluster?.stop();
});

test("the dry run's job script has no key", async () => {
  const dry = await runSvc(["run", "-p", "cluster", "text-generation", TEXT_MODEL, "--api-key", KEY, "--dry-run"], env);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain("SVC_API_KEY=$(cat api_key)");
  expect(dry.stdout).not.toContain(KEY);
});

test("the job's folder and files are private, and the key is in no job script and no command line on the node", async () => {
  const run = await runSvc(["run", "-p", "cluster", "--mem", "1", "text-generation", TEXT_MODEL, "--api-key", KEY], env);
  expect(run.code).toBe(0);
  const id = run.stdout.trim();
  await eventually(async () => (await client.services.get(id)).status === "HEALTHY", 90_000, "the job's service to be HEALTHY");

  const work = `/home/svc/svc/jobs/${id}`;
  const modes = (await cluster.execAsUser(`stat -c '%a %n' ${work} ${work}/job.sh ${work}/api_key ${work}/output.log ${work}/port`)).output;
  expect(modes.trim().split("\n")).toEqual([`700 ${work}`, `600 ${work}/job.sh`, `600 ${work}/api_key`, `600 ${work}/output.log`, `600 ${work}/port`]);
  expect((await cluster.execAsUser(`cat ${work}/job.sh`)).output).not.toContain(KEY);
  const commandLines = (await cluster.container.exec(["ps", "-eo", "args"])).output;
  expect(commandLines).toContain("runtimes/text-generation/src/main.ts");
  expect(commandLines).not.toContain(KEY);

  const withKey = await fetch(`${app.url}/proxy/${id}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(withKey.status).toBe(200);
  expect((await fetch(`${app.url}/proxy/${id}/v1/models`)).status).toBe(401);
  await client.services.stop(id);
});
