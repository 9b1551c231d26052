/**
 * A real cluster on day one: a new account on the Slurm test cluster (images/slurm-test: munge,
 * slurmctld, slurmd and sshd in a container with host networking, reached on 127.0.0.1 only), with
 * an empty home and no Bun on its PATH, used through the CLI from `svc profile add` to a chat. svc
 * installs its own runtime over the profile's SSH connection; these tests follow that install
 * through a second run, a second svc instance, another version, a cut connection and a node that
 * does not have it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { SvcClient } from "@svc/client";
import type { RuntimeList, ServiceStatus, SlurmProfile } from "@svc/contracts";
import { RuntimeBundles, sharedSlurmDeps, SlurmEngine } from "@svc/orchestrator-svc";
import { clusterConnection } from "@svc/ssh";
import { ensureDocker, eventually, runSvc, startSlurmCluster, startSvc, tempHome, writeKeyPair, SVC, type RunningSvc, type SshTestHost, RUNTIME_UPLOAD_TEST_MS } from "@svc/testing";

const TEXT_MODEL = "svc-tiny/tiny-llama-gguf";
const USER = "newcomer";
const PROFILE = "cluster";

let cluster: SshTestHost;
let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;
let localHome: string;
let keyFile: string;
/** The version svc installed on the first run. */
let version = "";

const run = (args: string[], environment = env) => runSvc(args, environment);
const asUser = async (command: string) => (await cluster.execAsUser(command, USER)).output;
const status = async (id: string) => (await client.services.get(id)).status;
const reaches = (id: string, wanted: ServiceStatus, ms = 60_000) => eventually(async () => (await status(id)) === wanted, ms, `${id} to be ${wanted}`);
const runtimes = async (environment = env): Promise<RuntimeList> => JSON.parse((await run(["runtime", "ls", "-p", PROFILE, "--json"], environment)).stdout);

async function chat(id: string) {
  const openai = new OpenAI({ baseURL: `${app.url}/proxy/${id}/v1`, apiKey: "sk-day-one" });
  const answer = await openai.chat.completions.create({ model: TEXT_MODEL, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: 8, temperature: 0 });
  expect(answer.usage!.completion_tokens).toBeGreaterThan(0);
}

async function addProfile(environment: Record<string, string>) {
  const add = await run(
    ["profile", "add", "--name", PROFILE, "--schema", "slurm", "--host", "127.0.0.1", "--port", String(cluster.port), "--user", USER, "--home", "~/svc", "--cache", "/shared/cache", "--identity-file", keyFile, "--yes"],
    environment,
  );
  expect({ code: add.code, stderr: add.stderr }).toMatchObject({ code: 0 });
}

beforeAll(async () => {
  ensureDocker();
  localHome = tempHome("svc-day-one-user-");
  keyFile = writeKeyPair(join(localHome, ".ssh")).privateKeyFile;
  cluster = await startSlurmCluster({ authorizedKeys: [] });
  await cluster.addUser(USER, (await Bun.file(`${keyFile}.pub`).text()).trim());
  app = await startSvc({ env: { HOME: localHome } });
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), HOME: localHome };
  client = new SvcClient({ baseUrl: app.url });
  mkdirSync(join(app.home, "cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: join(app.home, "local-home"), cache_dir: join(app.home, "cache") });
}, 600_000);

afterAll(async () => {
  for (const service of (await client?.services.list({ all: true }).catch(() => [])) ?? []) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app?.cleanup();
  await cluster?.stop();
});

describe("a new account on a real cluster, from svc profile add to a chat", () => {
  test("the account starts with an empty home and no Bun on its PATH", async () => {
    expect(await asUser("ls -A ~; command -v bun || echo no-bun")).toBe(".ssh\nno-bun\n");
  });

  test("profile add → model ls --refresh → run (svc installs its runtime, with progress) → HEALTHY → chat through /proxy → stop", async () => {
    await addProfile(env);
    // /api/health reports the new profile's cluster as reachable (checked in the background).
    await eventually(async () => (await client.health()).engines.some((e) => e.engine === "slurm" && e.profile === PROFILE && e.state === "reachable"), 40_000, "the cluster to be reachable");
    const ls = await run(["model", "ls", "--refresh", "--profile", PROFILE, "--json"]);
    expect(ls.code).toBe(0);
    expect((JSON.parse(ls.stdout) as { repo: string }[]).map((m) => m.repo)).toContain(TEXT_MODEL);

    const started = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--name", "first", "--api-key", "sk-day-one"]);
    expect(started.code).toBe(0);
    const installed = started.stderr.match(/Installed the svc runtime ([0-9a-f]{16}) \(x64\) on 127\.0\.0\.1 in ~\/svc\/runtime\/\1: [\d.]+ [KMG]iB sent in [\d.]+ s; it had none\./);
    expect(installed).not.toBeNull();
    version = installed![1];
    expect(started.stderr).toContain(`Installing the svc runtime ${version} (x64) on 127.0.0.1 for profile ${PROFILE}`);
    const id = started.stdout.trim();
    await reaches(id, "HEALTHY");
    await chat(id);

    // The job started the installed Bun by absolute path; nothing was added to the account's PATH.
    const script = await asUser(`cat ~/svc/jobs/${id}/job.sh`);
    expect(script).toContain(`exec "$HOME"/svc/runtime/${version}/bin/bun "$HOME"/svc/runtime/${version}/app/runtimes/text-generation/src/main.ts --model`);
    expect(await asUser(`test -x ~/svc/runtime/${version}/bin/bun && echo there; command -v bun || echo no-bun`)).toBe("there\nno-bun\n");
    // svc details names what runs the server: the svc runtime, not a Docker image.
    const details = await run(["details", id]);
    expect(details.stdout).toMatch(new RegExp(`runtime\\s+svc runtime ${version} \\(bare: .*/runtimes/text-generation/src/main\\.ts\\)`));
    expect(details.stdout).not.toContain("svc-text-generation");
    await client.services.stop(id);
    await reaches(id, "STOPPED");
  }, RUNTIME_UPLOAD_TEST_MS);

  test("a second run finds the runtime and transfers nothing", async () => {
    const before = await client.runtimes.installs({ profile: PROFILE });
    const again = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--name", "second", "--api-key", "sk-day-one"]);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain("svc runtime");
    expect(await client.runtimes.installs({ profile: PROFILE })).toEqual(before);
    expect(before.filter((task) => task.bytesSent > 0).map((task) => task.version)).toEqual([version]);
    const id = again.stdout.trim();
    await reaches(id, "HEALTHY");
    await client.services.stop(id);
    await reaches(id, "STOPPED");
  });

  test("a second svc instance (another home) finds the same version there and uploads nothing", async () => {
    const other = await startSvc({ env: { HOME: localHome } });
    const otherEnv = { ...env, SVC_HOME_DIR: other.home, SVC_PORT: String(other.port) };
    try {
      mkdirSync(join(other.home, "cache"), { recursive: true });
      await new SvcClient({ baseUrl: other.url }).profiles.create({ name: "default", schema: "local", home_dir: join(other.home, "h"), cache_dir: join(other.home, "cache") });
      await addProfile(otherEnv);
      const install = await run(["runtime", "install", "-p", PROFILE, "--json"], otherEnv);
      expect(install.code).toBe(0);
      expect(JSON.parse(install.stdout)).toMatchObject({ version, alreadyInstalled: true, bytesSent: 0, state: "done" });
      expect((await run(["runtime", "install", "-p", PROFILE], otherEnv)).stdout).toContain(`The svc runtime ${version} (x64) is installed on 127.0.0.1 already: nothing was sent.`);
    } finally {
      await other.cleanup();
    }
  });

  test("another version (svc's bundle changed) is installed beside the first; runtime ls shows both, runtime rm removes the old one", async () => {
    // svc's own bundle code, given other content: the bundle of an svc whose runtimes are text generation only.
    const profile = (await client.profiles.get(PROFILE)) as SlurmProfile;
    const deps = sharedSlurmDeps({ cacheDir: join(app.home, "cache", "npm"), connect: (p) => clusterConnection(p, { userHome: localHome, env: { HOME: localHome } }) });
    const engine = new SlurmEngine(PROFILE, async () => profile, { ...deps, bundles: new RuntimeBundles(join(app.home, "cache", "npm"), ["text-generation"]) });
    let changed = "";
    try {
      const { bundle, install } = await (await engine.runtime()).ensure();
      changed = bundle.id;
      expect(changed).not.toBe(version);
      expect(install!.notes[0]).toContain(`it had only other versions (${version})`);
    } finally {
      engine.close();
    }
    const listed = await runtimes();
    expect(listed.current).toBe(version);
    expect(listed.versions.map((v) => [v.version, v.current, v.tasks])).toEqual(
      expect.arrayContaining([
        [version, true, ["text-generation", "speech-recognition"]],
        [changed, false, ["text-generation"]],
      ]),
    );
    const table = (await run(["runtime", "ls", "-p", PROFILE])).stdout;
    expect(table).toMatch(new RegExp(`^${version}\\s+x64\\s+text-generation,speech-recognition\\s+[\\d.]+ MiB\\s+.* ago\\s+yes`, "m"));
    expect(table).toMatch(new RegExp(`^${changed}\\s+x64\\s+text-generation\\s+`, "m"));

    const rm = await run(["runtime", "rm", "-p", PROFILE]);
    expect(rm.stdout.trim()).toBe(`Removed ${changed} from profile ${PROFILE}.`);
    expect((await runtimes()).versions.map((v) => v.version)).toEqual([version]);
  }, RUNTIME_UPLOAD_TEST_MS);

  test("an install cut off midway (the connection dropped) leaves no usable-looking version, and the next runs (two at once, one upload) install cleanly", async () => {
    expect((await run(["runtime", "rm", "-p", PROFILE, "--version", version])).code).toBe(0);
    // Freeze the cluster's tar as soon as the upload starts, so the connection drops midway for sure.
    const frozen = cluster.container.exec(["sh", "-c", `until pkill -STOP -u ${USER} -x tar; do sleep 0.02; done`]);
    const install = Bun.spawn([SVC, "runtime", "install", "-p", PROFILE], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
    await frozen;
    expect(await asUser("ls -A ~/svc/runtime")).toMatch(/^\.incoming-[0-9a-f]{16}-/);
    await cluster.container.exec(["pkill", "-x", "sshd"]);
    await cluster.container.exec(["pkill", "-CONT", "-u", USER, "-x", "tar"]);
    const [stderr, code] = await Promise.all([new Response(install.stderr).text(), install.exited]);
    expect(code).not.toBe(0);
    expect(stderr).toContain("Nothing of it counts as installed");
    await eventually(async () => (await asUser("ls -A ~/svc/runtime")) === "", 60_000, "the upload's temporary folder to go");
    expect((await runtimes()).versions).toEqual([]);

    // Two runs at once: both wait for the one upload they share.
    const uploadsBefore = (await client.runtimes.installs({ profile: PROFILE })).filter((task) => task.state === "done" && task.bytesSent > 0).length;
    const both = await Promise.all(["after-cut-1", "after-cut-2"].map((name) => run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--name", name, "--api-key", "sk-day-one"])));
    for (const next of both) {
      expect(next.code).toBe(0);
      expect(next.stderr).toContain(`Installed the svc runtime ${version} (x64)`);
    }
    const uploads = (await client.runtimes.installs({ profile: PROFILE })).filter((task) => task.state === "done" && task.bytesSent > 0);
    expect(uploads.length - uploadsBefore).toBe(1);
    for (const next of both) {
      const id = next.stdout.trim();
      await reaches(id, "HEALTHY");
      await chat(id);
      await client.services.stop(id);
      await reaches(id, "STOPPED");
    }
  }, RUNTIME_UPLOAD_TEST_MS);

  test("a job whose runtime is not on its node fails, and svc details says why", async () => {
    // Fill the node so the job waits; meanwhile the runtime disappears (as on a node that does not share the home).
    const blocker = (await asUser("sbatch --parsable --mem=7000M --wrap 'sleep 300'")).trim();
    expect(blocker).toMatch(/^\d+$/);
    const started = await run(["run", "-p", PROFILE, "--mem", "4", "text-generation", TEXT_MODEL, "--name", "no-runtime"]);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    await reaches(id, "PENDING");
    await asUser(`mv ~/svc/runtime/${version} ~/svc/runtime-elsewhere`);
    try {
      await asUser(`scancel ${blocker}`);
      await reaches(id, "FAILED");
      const details = await run(["details", id]);
      expect(details.stdout).toMatch(new RegExp(`^status +FAILED \\(the svc runtime ${version} is not on node localhost: /home/${USER}/svc/runtime/${version}/bin/bun is missing there\\. Its home folder must be shared with the compute nodes`, "m"));
    } finally {
      await asUser(`mv ~/svc/runtime-elsewhere ~/svc/runtime/${version}`);
    }
  });
});
