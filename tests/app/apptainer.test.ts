/**
 * The Apptainer runtime on the Slurm test cluster. Apptainer cannot be installed on the test
 * machines, so the cluster gets a stand-in `apptainer` on its PATH (tests/support/
 * apptainer-stand-in.sh): it records its arguments, "pulls" and "builds" small files, and runs the
 * bare svc runtime in place of the image. The tests show the pull, build and run commands svc
 * issues, and that `--dry-run` prints exactly those.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import { APPTAINER_STAND_IN, ensureDocker, eventually, runSvc, startSlurmCluster, startSvc, tempHome, writeKeyPair, type RunningSvc, type SshTestHost, RUNTIME_UPLOAD_TEST_MS } from "@svc/testing";

const TEXT_MODEL = "svc-tiny/tiny-llama-gguf";
const PROFILE = "appt";
/** A local image standing for svc's own (which svc sends as a `docker save` archive): a few bytes, made here. */
const LOCAL_IMAGE = "svc-test-apptainer-tiny:latest";
/** A registry image: pulled on the cluster. */
const REMOTE_IMAGE = "docker://svc-test/text-generation:1";

let cluster: SshTestHost;
let localHome: string;
let key: { privateKeyFile: string; publicKey: string };
const apps: RunningSvc[] = [];

const calls = async () => (await cluster.execAsUser("cat ~/apptainer-calls.log 2>/dev/null || true")).output.trim().split("\n").filter(Boolean);

/** An application whose text-generation image is `image`, with an apptainer profile on the cluster. */
async function appWithImage(image: string) {
  const app = await startSvc({ env: { HOME: localHome, SVC_RUNTIME_IMAGE_TEXT_GENERATION: image } });
  apps.push(app);
  const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), HOME: localHome };
  const client = new SvcClient({ baseUrl: app.url });
  mkdirSync(join(app.home, "cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: join(app.home, "h"), cache_dir: join(app.home, "cache") });
  const slurm = { name: PROFILE, schema: "slurm", host: "127.0.0.1", port: cluster.port, user: "svc", home: "~/svc", cache: "/shared/cache", identity_file: key.privateKeyFile, runtime: "apptainer" };
  // A new host's key is recorded only with its fingerprint confirmed (as the CLI's prompt or --yes does).
  const first = await client.profiles.create(slurm).catch((error: unknown) => error);
  if (first instanceof ApiError) {
    expect(first.code).toBe("ssh_host_key_unknown");
    await client.profiles.create({ ...slurm, host_key_fingerprint: (first.details as { fingerprint: string }).fingerprint });
  }
  await client.models.refresh(PROFILE);
  const reaches = (id: string, wanted: ServiceStatus) => eventually(async () => (await client.services.get(id)).status === wanted, 60_000, `${id} to be ${wanted}`);
  return { app, env, client, reaches, run: (args: string[]) => runSvc(args, env) };
}

/** The dry run's command lines (prepare steps from its comments, and the exec line) as patterns for what the stand-in recorded. */
function recorded(line: string): RegExp {
  const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replaceAll('"\\$HOME"', "/home/svc").replaceAll("\\$\\$", "\\d+").replace('"\\$addr"', "[0-9.]+").replace('"\\$port"', "\\d+")}$`);
}

beforeAll(async () => {
  ensureDocker();
  localHome = tempHome("svc-apptainer-user-");
  key = writeKeyPair(join(localHome, ".ssh"));
  cluster = await startSlurmCluster({ authorizedKeys: [key.publicKey] });
  await cluster.container.copyFilesToContainer([{ source: APPTAINER_STAND_IN, target: "/usr/local/bin/apptainer", mode: 0o755 }]);
  const rootfs = mkdtempSync(join(tmpdir(), "svc-apptainer-image-"));
  writeFileSync(join(rootfs, "README"), "a tiny image for the apptainer stand-in test\n");
  const imported = Bun.spawnSync(["sh", "-c", `tar -C ${rootfs} -c . | docker import - ${LOCAL_IMAGE}`], { stderr: "pipe" });
  rmSync(rootfs, { recursive: true });
  expect(imported.exitCode).toBe(0);
}, 600_000);

afterAll(async () => {
  for (const app of apps) await app.cleanup();
  await cluster?.stop();
  Bun.spawnSync(["docker", "image", "rm", LOCAL_IMAGE]);
});

describe("runtime = apptainer, with a stand-in apptainer on the test cluster", () => {
  test("a local image is sent as a docker save archive and built there, once; --dry-run shows exactly the build and run commands", async () => {
    const { client, run, reaches } = await appWithImage(LOCAL_IMAGE);
    expect((await run(["runtime", "install", "-p", PROFILE])).code).toBe(0); // the stand-in runs the bare svc runtime
    const dry = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--dry-run"]);
    expect(dry.code).toBe(0);
    const imageId = Bun.spawnSync(["docker", "image", "inspect", "--format", "{{.Id}}", LOCAL_IMAGE]).stdout.toString().trim().replace("sha256:", "").slice(0, 12);
    const sif = `"$HOME"/svc/images/svc-test-apptainer-tiny_${imageId}.sif`;
    const prepare = dry.stdout.split("\n").filter((line) => line.startsWith("#   ")).map((line) => line.slice(4));
    expect(prepare).toEqual([
      `umask 077 && mkdir -p "$HOME"/svc/images && cat > ${sif}.docker.tar.$$.part && mv -f ${sif}.docker.tar.$$.part ${sif}.docker.tar`,
      `umask 077 && apptainer build ${sif}.$$.part docker-archive://${sif}.docker.tar && mv -f ${sif}.$$.part ${sif} && rm -f ${sif}.docker.tar`,
    ]);
    const exec = dry.stdout.split("\n").find((line) => line.startsWith("exec "))!;
    expect(exec).toStartWith(`exec apptainer run --bind /shared/cache/models/models--svc-tiny--tiny-llama-gguf:/shared/cache/models/models--svc-tiny--tiny-llama-gguf:ro ${sif} --model /shared/cache/models/`);

    const started = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL]);
    expect(started.code).toBe(0);
    expect(started.stderr).toContain(`The Apptainer image ~/svc/images/svc-test-apptainer-tiny_${imageId}.sif was missing on 127.0.0.1, so svc sent the local image and built it there.`);
    const id = started.stdout.trim();
    await reaches(id, "HEALTHY");
    const log = await calls();
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(recorded(prepare[1].split(" && ")[1].replace(/^apptainer /, "")));
    expect(log[1]).toMatch(recorded(exec.replace(/^exec apptainer /, "")));
    await client.services.stop(id);
    await reaches(id, "STOPPED");

    // The image is on the cluster now: the next run builds nothing.
    const again = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL]);
    expect(again.stderr).not.toContain("Apptainer image");
    await reaches(again.stdout.trim(), "HEALTHY");
    expect((await calls()).filter((line) => line.startsWith("build "))).toHaveLength(1);
    await client.services.stop(again.stdout.trim());
  }, RUNTIME_UPLOAD_TEST_MS);

  test("a registry image is pulled on the cluster before the job starts; one in <cache>/images is used as it is", async () => {
    const { client, run, reaches } = await appWithImage(REMOTE_IMAGE);
    const dry = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--dry-run"]);
    const sif = '"$HOME"/svc/images/text-generation_1.sif';
    const pull = `umask 077 && mkdir -p "$HOME"/svc/images && apptainer pull ${sif}.$$.part ${REMOTE_IMAGE} && mv -f ${sif}.$$.part ${sif}`;
    expect(dry.stdout.split("\n").filter((line) => line.startsWith("#   "))).toEqual([`#   ${pull}`]);
    const before = (await calls()).length;
    const started = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL]);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    await reaches(id, "HEALTHY");
    const log = (await calls()).slice(before);
    expect(log[0]).toMatch(recorded(pull.split(" && ")[2].replace(/^apptainer /, "")));
    expect(log[1]).toStartWith("run --bind /shared/cache/models/models--svc-tiny--tiny-llama-gguf:/shared/cache/models/models--svc-tiny--tiny-llama-gguf:ro /home/svc/svc/images/text-generation_1.sif --model ");
    await client.services.stop(id);
    await reaches(id, "STOPPED");

    await cluster.container.exec(["sh", "-c", "mkdir -p /shared/cache/images && echo shared > /shared/cache/images/text-generation_1.sif && chmod -R a+rX /shared/cache/images"]);
    const shared = await run(["run", "-p", PROFILE, "text-generation", TEXT_MODEL, "--dry-run"]);
    expect(shared.stdout).not.toContain("#   ");
    expect(shared.stdout).toContain(" /shared/cache/images/text-generation_1.sif --model ");
  }, RUNTIME_UPLOAD_TEST_MS);
});
