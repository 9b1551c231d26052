/**
 * The Apptainer runtime, and vLLM, on the Slurm test cluster. Apptainer cannot be installed on the
 * test machines, so the cluster gets a stand-in `apptainer` on its PATH (tests/support/
 * apptainer-stand-in.sh): it records its arguments, "pulls" and "builds" small files, and runs the
 * bare svc runtime in place of the image. The tests show the pull, build and run commands svc
 * issues, and that `--dry-run` prints exactly those. The cluster has no GPU nor vLLM either: a
 * `python3` stand-in in ~/.local/bin starts a vLLM stand-in (tests/support/vllm-stand-in.ts), so
 * batch jobs are seen running beside vLLM as beside an Apptainer image, over a folder in the
 * cluster user's home outside the profile's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, SvcClient } from "@svc/client";
import type { ServiceStatus } from "@svc/contracts";
import type { BatchStatus } from "@svc/contracts";
import { APPTAINER_STAND_IN, ensureDocker, eventually, runSvc, sh, SPEECH_MODEL, startSlurmCluster, startSvc, tempHome, VLLM_PYTHON_STAND_IN, VLLM_STAND_IN, writeKeyPair, type RunningSvc, type SshTestHost, RUNTIME_UPLOAD_TEST_MS } from "@svc/testing";

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

/** A folder in the cluster user's home, outside the profile's (~/svc), with text files for batch jobs. */
const BATCH_IN = "/home/svc/batch-in";
const TEXTS = 6;

/** An application whose text-generation image is `image`, with an apptainer profile on the cluster. */
const appWithImage = (image: string) => appWith({ SVC_RUNTIME_IMAGE_TEXT_GENERATION: image }, "apptainer");

/** An application started with `appEnv`, with a slurm profile PROFILE of that runtime on the cluster. */
async function appWith(appEnv: Record<string, string>, runtime: "apptainer" | "bare") {
  const app = await startSvc({ env: { HOME: localHome, ...appEnv } });
  apps.push(app);
  const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), HOME: localHome };
  const client = new SvcClient({ baseUrl: app.url });
  mkdirSync(join(app.home, "cache"), { recursive: true });
  await client.profiles.create({ name: "default", schema: "local", home_dir: join(app.home, "h"), cache_dir: join(app.home, "cache") });
  const slurm = { name: PROFILE, schema: "slurm", host: "127.0.0.1", port: cluster.port, user: "svc", home: "~/svc", cache: "/shared/cache", identity_file: key.privateKeyFile, runtime };
  // A new host's key is recorded only with its fingerprint confirmed (as the CLI's prompt or --yes does).
  const first = await client.profiles.create(slurm).catch((error: unknown) => error);
  if (first instanceof ApiError) {
    expect(first.code).toBe("ssh_host_key_unknown");
    await client.profiles.create({ ...slurm, host_key_fingerprint: (first.details as { fingerprint: string }).fingerprint });
  }
  await client.models.refresh(PROFILE);
  const reaches = (id: string, wanted: ServiceStatus) => eventually(async () => (await client.services.get(id)).status === wanted, 60_000, `${id} to be ${wanted}`);
  const batchReaches = (id: string, wanted: BatchStatus) => eventually(async () => (await client.batches.get(id)).status === wanted, 120_000, `batch ${id} to be ${wanted}`);
  return { app, env, client, reaches, batchReaches, run: (args: string[]) => runSvc(args, env) };
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
  cluster = await startSlurmCluster({ authorizedKeys: [key.publicKey], sharedRuntime: true });
  await cluster.container.copyFilesToContainer([
    { source: APPTAINER_STAND_IN, target: "/usr/local/bin/apptainer", mode: 0o755 },
    { source: VLLM_PYTHON_STAND_IN, target: "/home/svc/.local/bin/python3", mode: 0o755 },
    { source: VLLM_STAND_IN, target: "/home/svc/vllm-stand-in.ts", mode: 0o644 },
  ]);
  const texts = tempHome("svc-apptainer-texts-");
  for (let i = 0; i < TEXTS; i++) writeFileSync(join(texts, `doc-${i}.txt`), `Document ${i}: ${"words ".repeat(i + 1)}`);
  const recordings = tempHome("svc-apptainer-recordings-");
  sh(["espeak-ng", "-w", join(recordings, "hello.wav"), "hello world"]);
  await cluster.container.copyDirectoriesToContainer([
    { source: texts, target: BATCH_IN },
    { source: recordings, target: "/home/svc/recordings" },
  ]);
  const owned = await cluster.container.exec(["chown", "-R", "svc:svc", "/home/svc"]);
  expect(owned.exitCode).toBe(0);
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

  test("a batch job runs its driver from the svc runtime beside the image, over a folder in the cluster user's home", async () => {
    const { client, run, batchReaches } = await appWithImage(REMOTE_IMAGE);
    const params = JSON.stringify({ prompt: "Say one word about:\n{text}", max_tokens: 4, temperature: 0 });
    const started = await run(["batch", "run", "-p", PROFILE, "chat", TEXT_MODEL, "--input-dir", BATCH_IN, "--output-dir", "/home/svc/batch-out/apptainer", "--params", params, "--idle-timeout", "1"]);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    await batchReaches(id, "COMPLETED");
    expect((await client.batches.get(id)).progress).toMatchObject({ total: TEXTS, done: TEXTS, failed: 0 });
    const answers = await cluster.execAsUser("ls /home/svc/batch-out/apptainer");
    expect(answers.output.trim().split("\n")).toEqual([...Array(TEXTS).keys()].map((i) => `doc-${i}.txt`));
    // The image served the model: the stand-in apptainer recorded a run of it.
    expect((await calls()).at(-1)).toStartWith("run --bind /shared/cache/models/models--svc-tiny--tiny-llama-gguf:");
  }, RUNTIME_UPLOAD_TEST_MS);
});

describe("vLLM on a bare slurm profile (a stand-in vLLM: the test cluster has no GPU)", () => {
  test("a batch job runs beside vLLM: its key in VLLM_API_KEY, every file answered; a speech service reads a folder in the user's home, /etc is refused", async () => {
    const { client, run, reaches, batchReaches, app } = await appWith({ SVC_TEXT_GENERATION_ENGINE: "vllm" }, "bare");
    const args = ["-p", PROFILE, "chat", TEXT_MODEL, "--input-dir", BATCH_IN, "--output-dir", "/home/svc/batch-out/vllm", "--idle-timeout", "1"];
    const dry = await run(["batch", "run", ...args, "--dry-run"]);
    expect(dry.code).toBe(0);
    const exec = dry.stdout.split("\n").find((line) => line.startsWith("exec "))!;
    expect(exec).toContain("runtimes/batch-driver/src/main.ts --task chat --input-dir /home/svc/batch-in --output-dir /home/svc/batch-out/vllm");
    expect(exec).toContain("--api-key-variable VLLM_API_KEY -- python3 -m vllm.entrypoints.openai.api_server --model /shared/cache/models/");
    const started = await run(["batch", "run", ...args]);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    await batchReaches(id, "COMPLETED");
    expect((await client.batches.get(id)).progress).toMatchObject({ total: TEXTS, done: TEXTS, failed: 0 });
    // The stand-in answers only a request with its key and the model's name as vLLM serves it: each answer says what it read.
    for (let i = 0; i < TEXTS; i++) {
      const answer = await cluster.execAsUser(`cat /home/svc/batch-out/vllm/doc-${i}.txt`);
      expect(answer.output).toBe(`vllm stand-in read ${`Document ${i}: ${"words ".repeat(i + 1)}`.length} characters`);
    }

    const refused = await run(["run", "-p", PROFILE, "speech-recognition", SPEECH_MODEL, "--input-dir", "/etc"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--input-dir /etc: it is in /etc, which holds the system's own files and no job may see");
    const speech = await run(["run", "-p", PROFILE, "speech-recognition", SPEECH_MODEL, "--input-dir", "/home/svc/recordings"]);
    expect(speech.code).toBe(0);
    const service = speech.stdout.trim();
    await reaches(service, "HEALTHY");
    const answer = await fetch(`${app.url}/proxy/${service}/transcribe`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ audio_path: "hello.wav", response_format: "text" }) });
    expect(answer.status).toBe(200);
    expect((await answer.json()).task).toBe("transcribe");
    await client.services.stop(service);
    await reaches(service, "STOPPED");
  }, RUNTIME_UPLOAD_TEST_MS);
});
