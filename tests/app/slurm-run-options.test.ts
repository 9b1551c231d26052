/**
 * Issue 20's run options on the Slurm test cluster: a slurm profile's job defaults (account,
 * partition, qos) in profiles.cfg and `profile show`; account, qos, reservation, nodelist and
 * exclude as #SBATCH lines exactly as given, reaching the job (`scontrol show job`); --mount
 * checked on the node; details showing them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import { eventually, runSvc, RUNTIME_UPLOAD_TEST_MS, startAppWithCluster, type ClusterApp, type SshTestHost } from "@svc/testing";

const TEXT_MODEL = "svc-tiny/tiny-llama-gguf";
const PROFILE = "hpc";
const RESERVATION = "svc_test_res";

let started: ClusterApp;
let cluster: SshTestHost;
let client: SvcClient;
let env: Record<string, string>;

const reaches = (id: string, wanted: ServiceStatus, ms = 60_000) =>
  eventually(async () => (await client.services.get(id)).status === wanted, ms, `${id} to be ${wanted}`);
const run = (args: string[]) => runSvc(args, env);
/** `scontrol show job`'s Field=value pairs of a service's job. */
async function jobFields(id: string): Promise<Record<string, string>> {
  const jobId = (await client.services.get(id)).handle!.split(":")[0];
  const shown = (await cluster.execAsUser(`scontrol show job ${jobId}`)).output;
  return Object.fromEntries([...shown.matchAll(/(\w+)=(\S*)/g)].map(([, key, value]) => [key, value]));
}

beforeAll(async () => {
  started = await startAppWithCluster(PROFILE);
  ({ cluster, client, env } = started);
}, 600_000);

afterAll(async () => {
  await started?.cleanup();
});

describe("run options on Slurm", () => {
  test("a slurm profile carries account, partition and qos defaults: written to profiles.cfg, shown by profile show", async () => {
    const update = await run(["profile", "update", "--name", PROFILE, "--account", "proj-a", "--partition", "debug", "--qos", "normal"]);
    expect(update.code).toBe(0);
    const file = readFileSync(join(env.SVC_HOME_DIR, "profiles.cfg"), "utf8");
    expect(file).toContain("account = proj-a\npartition = debug\nqos = normal\n");
    const show = (await run(["profile", "show", "--name", PROFILE])).stdout;
    expect(show).toMatch(/^account:\s+proj-a$/m);
    expect(show).toMatch(/^partition:\s+debug$/m);
    expect(show).toMatch(/^qos:\s+normal$/m);
    const refused = await run(["profile", "update", "--name", PROFILE, "--account", "a;id"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`account "a;id": a Slurm account name has letters, digits`);
  });

  test("--dry-run has every directive exactly as given, the profile's defaults where the run gives none", async () => {
    const dry = await run([
      "run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--qos", "high.prio", "--reservation", RESERVATION, "--exclude", "node[01-04],gpu7",
      "--nodelist", "localhost", "--mount", "/shared/cache", "--grace-period", "600", "--dry-run",
    ]);
    expect(dry.code).toBe(0);
    const directives = dry.stdout.split("\n").filter((line) => line.startsWith("#SBATCH"));
    expect(directives).toEqual(
      expect.arrayContaining([
        "#SBATCH --partition=debug",
        "#SBATCH --account=proj-a",
        "#SBATCH --qos=high.prio",
        `#SBATCH --reservation=${RESERVATION}`,
        "#SBATCH --exclude=node[01-04],gpu7",
        "#SBATCH --nodelist=localhost",
      ]),
    );
    expect(dry.stdout).toContain("if [ ! -d /shared/cache ]; then");
    expect(dry.stdout).toContain("(--grace-period 600)");
    expect(dry.stderr).not.toContain("do nothing");
  });

  test(
    "the directives reach sbatch: scontrol shows the job's account, qos, reservation and nodes; details shows them; the --mount folder is found on the node",
    async () => {
      // The test cluster keeps no accounting database: Slurm takes any account name (and records
      // no QOS, so that one is checked in the job's script); a reservation has to exist, and holds
      // the only node while it does.
      const created = await cluster.container.exec(["scontrol", "create", "reservation", `reservationname=${RESERVATION}`, "users=svc", "starttime=now", "duration=120", "nodes=localhost", "flags=ignore_jobs"]);
      expect(created.output).toContain("Reservation created");
      const started = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--reservation", RESERVATION, "--nodelist", "localhost", "--mount", "/shared/cache", "--grace-period", "600"]);
      expect(started.code).toBe(0);
      const id = started.stdout.trim();
      await reaches(id, "HEALTHY", RUNTIME_UPLOAD_TEST_MS);
      const job = await jobFields(id);
      expect(job.Account).toBe("proj-a");
      expect(job.Reservation).toBe(RESERVATION);
      expect(job.Partition).toBe("debug");
      expect(job.ReqNodeList).toBe("localhost");
      const script = (await cluster.execAsUser(`cat ~/svc/jobs/${id}/job.sh`)).output;
      expect(script).toContain("\n#SBATCH --qos=normal\n");
      const details = await client.services.get(id);
      expect(details.job).toEqual({ account: "proj-a", partition: "debug", qos: "normal", reservation: RESERVATION, nodelist: "localhost" });
      expect(details.mounts).toEqual(["/shared/cache"]);
      const shown = (await run(["details", id])).stdout;
      expect(shown).toContain(`account=proj-a partition=debug qos=normal reservation=${RESERVATION} nodelist=localhost`);
      expect(shown).toContain("mounts        /shared/cache (read-only)");
      expect(shown).toContain("grace period  600 s");
      await client.services.stop(id);
      await reaches(id, "STOPPED");
      await cluster.container.exec(["scontrol", "delete", `reservationname=${RESERVATION}`]);
    },
    RUNTIME_UPLOAD_TEST_MS + 60_000,
  );

  test("a --mount folder that is not on the node fails the job, saying so", async () => {
    const started = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--mount", "/no/such/corpus"]);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    await reaches(id, "FAILED");
    expect((await client.services.get(id)).reason).toContain("the --mount folder /no/such/corpus is not on node localhost");
    expect((await run(["ls"])).stdout).toMatch(new RegExp(`${id.slice(0, 13)}.*FAILED`));
  });
});
