/**
 * A Slurm service's API key stays its user's: on the test cluster (images/slurm-test, reached over
 * SSH on 127.0.0.1), the job's work folder is 0700 and its files 0600, the key is in no job script
 * and in no command line on the node, and the runtime still takes requests with the key only.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { SvcClient } from "@svc/client";
import { eventually, runSvc, startAppWithCluster, type ClusterApp, type SshTestHost } from "@svc/testing";

const TEXT_MODEL = "svc-tiny/tiny-llama-gguf";
const KEY = "sk-slurm-secret-7c2e91";

let started: ClusterApp;
let cluster: SshTestHost;
let app: ClusterApp["app"];
let client: SvcClient;
let env: Record<string, string>;

beforeAll(async () => {
  started = await startAppWithCluster();
  ({ cluster, app, client, env } = started);
}, 600_000);

afterAll(async () => {
  await started?.cleanup();
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
