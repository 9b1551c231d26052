import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, type Model, type Profile, type RunRequest, type ServiceStatus } from "@svc/contracts";
import { freePort } from "@svc/platform/net";
import { ensureDocker, fakeRuntimeImage, eventually } from "@svc/testing";
import { ServiceStore, type NewServiceRow } from "../src/db/service-store";
import { DockerApi } from "../src/engines/docker/docker-api";
import { DockerEngine } from "../src/engines/docker/docker-engine";
import { Reconciler } from "../src/reconciler/reconciler";
import { ImageCatalog } from "../src/catalog/images";
import { ServicesService } from "../src/services/service";
import { protectedPlaces } from "../src/launch/data-paths";

const home = mkdtempSync(join(tmpdir(), "svc-orch-"));
/** A folder of data outside the profile's home: allowed as any readable folder is. */
const inputRoot = mkdtempSync(join(tmpdir(), "svc-orch-inputs-"));
const profile: Profile = { name: "default", schema: "local", home_dir: home, cache_dir: home };
const REV_OLD = "a".repeat(40);
const REV_NEW = "b".repeat(40);
const models: Model[] = [
  { repo: "acme/tiny", revision: REV_OLD, profile: "default", image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z" },
  { repo: "acme/tiny", revision: REV_NEW, profile: "default", image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-02-01T00:00:00.000Z" },
  { repo: "acme/ears", revision: REV_OLD, profile: "default", image: "speech-recognition", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z" },
];

let docker: DockerEngine;
let catalog: ImageCatalog;
let store: ServiceStore;
let reconciler: Reconciler;
let services: ServicesService;
const homeLabel = `orch-test-${process.pid}`;

function build(dbFile: string) {
  const store = new ServiceStore(dbFile);
  const reconciler = new Reconciler({ store, engineFor: () => docker, log: (m) => console.log(`[reconciler] ${m}`) });
  const services = new ServicesService({
    store,
    planner: {
      profile: async (name) => {
        if (name !== "default") throw new ApiError(404, "not_found", `no profile ${name}`);
        return profile;
      },
      models: async (p, repo) => models.filter((m) => m.profile === p && (repo === undefined || m.repo === repo)),
      image: (task, server) => catalog.image(task, server),
      cpuTextGeneration: "svc",
      capabilities: () => docker.capabilities,
      // svc's own home is the profile's home here, as when home_dir is SVC_HOME_DIR: its data is refused, its inputs are not.
      protectedPlaces: protectedPlaces(home, "/var/run/docker.sock"),
      gpus: async () => null,
      isProjectRuntime: (image) => catalog.isProjectRuntime(image),
    },
    engineFor: () => docker,
    engineOf: () => docker,
    reconciler,
  });
  return { store, reconciler, services };
}

beforeAll(() => {
  ensureDocker();
  const image = fakeRuntimeImage();
  catalog = ImageCatalog.fromEnv({ SVC_RUNTIME_IMAGE_TEXT_GENERATION: image, SVC_RUNTIME_IMAGE_SPEECH_RECOGNITION: image });
  docker = new DockerEngine(DockerApi.fromEnv(), {
    network: "host",
    homeLabel,
    keysDir: join(home, "api-keys"),
    freePort: () => freePort(),
    projectTask: (image) => catalog.projectTask(image),
    projectImage: (task) => catalog.image(task, "svc"),
  });
  ({ store, reconciler, services } = build(join(home, "orchestrator.db")));
  reconciler.start();
});
afterAll(async () => {
  reconciler.stop();
  for (const row of store.list({ all: true })) if (row.handle) await docker.release(row.handle);
});

const run = (extra: Partial<RunRequest> = {}) => services.run({ task: "text-generation", model: "acme/tiny", ...extra });
const statusOf = (id: string) => store.get(id)?.status;
const reaches = (id: string, status: ServiceStatus, ms = 20_000) => eventually(() => statusOf(id) === status, ms, `${id} to be ${status} (is ${statusOf(id)})`);

async function expectApiError(promise: Promise<unknown>, status: number, text: string) {
  const error = await promise.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(status);
  expect((error as ApiError).message).toContain(text);
}

describe("svc run on Docker", () => {
  test("a dry run renders the docker run line, picks the newest revision with a warning, and records nothing", async () => {
    const before = store.count();
    const result = await run({ dryRun: true, apiKey: "secret-key" });
    expect(result.service).toBeNull();
    expect(result.matched).toBe(2);
    expect(result.revision).toBe(REV_NEW);
    expect(result.warnings[0]).toContain(`No --revision given: using ${REV_NEW}`);
    expect(result.script).toMatch(/^docker run --detach --init --name svc-[0-9a-f-]{36} /);
    expect(result.script).toContain("--api-key-file /run/secrets/svc-api-key");
    expect(result.script).not.toContain("secret-key");
    expect(store.count()).toBe(before);
  });

  test("the API key is kept once (never in the stored launch) and handed over again on restart", async () => {
    const service = (await run({ name: "keyed", apiKey: "sk-kept-once" })).service!;
    await reaches(service.id, "HEALTHY");
    const row = store.get(service.id)!;
    expect(row.apiKey).toBe("sk-kept-once");
    expect(row.spec).not.toContain("sk-kept-once");
    const authorized = async () => (await (await fetch(`${services.details(service.id).url}/v1/models`, { headers: { authorization: "Bearer sk-kept-once" } })).json()).authorized;
    expect(await authorized()).toBe(true);
    await services.stop(service.id);
    await reaches(service.id, "STOPPED");
    await services.restart(service.id);
    await reaches(service.id, "HEALTHY");
    expect(await authorized()).toBe(true);
    await services.remove(service.id, true);
  });

  test("run → HEALTHY with a port, stop → STOPPED, restart → HEALTHY with the same id, rm", async () => {
    const result = await run({ name: "lifecycle", engineArgs: ["--start-delay-ms", "800"], revision: REV_OLD.slice(0, 12) });
    const service = result.service!;
    expect(result.revision).toBe(REV_OLD);
    expect(service).toMatchObject({ name: "lifecycle", image: "text_generation", status: "SUBMITTED", model: "acme/tiny", profile: "default" });
    await reaches(service.id, "HEALTHY");
    const healthy = services.details(service.id.slice(0, 13));
    expect(healthy.port).toBeGreaterThan(0);
    expect((await fetch(`${healthy.url}/health`)).status).toBe(200);
    expect(healthy.events.map((e) => e.to)).toEqual(["SUBMITTED", "STARTING", "HEALTHY"]);
    expect(healthy.phases.ready).not.toBeNull();

    await expectApiError(services.remove(service.id, false), 409, "stop it first");
    expect((await services.stop(service.id)).status).toBe("STOPPING");
    await reaches(service.id, "STOPPED");
    expect(store.get(service.id)!.reason).toBe("stopped by its creator");

    await services.restart(service.id);
    await reaches(service.id, "HEALTHY");
    const again = services.details(service.id);
    expect(again.id).toBe(service.id);
    expect(again.events.map((e) => e.to)).toEqual(["SUBMITTED", "STARTING", "HEALTHY", "STOPPING", "STOPPED", "SUBMITTED", "STARTING", "HEALTHY"]);

    await services.remove(service.id, true);
    expect(store.get(service.id)).toBeUndefined();
    expect((await docker.inspect([again.handle!])).get(again.handle!)).toEqual({ phase: "missing" });
  });

  test("a crashing service turns FAILED with its exit code and last output", async () => {
    const { service } = await run({ engineArgs: ["--crash-after-ms", "400"] });
    await reaches(service!.id, "FAILED");
    const reason = store.get(service!.id)!.reason!;
    expect(reason).toContain("exited with code 3");
    expect(reason).toContain("boom, crashing on purpose");
  });

  test("a healthy service that stops answering turns UNHEALTHY", async () => {
    const { service } = await run({ engineArgs: ["--unhealthy-after-ms", "1500"] });
    await reaches(service!.id, "HEALTHY");
    await reaches(service!.id, "UNHEALTHY");
    await services.stop(service!.id);
  });

  test("hostile engine arguments reach the server verbatim as single arguments and run nothing", async () => {
    const marker = join(home, "pwned");
    const hostile = [`$(touch ${marker})`, `; touch ${marker}`, "`id`", "a'b\"c"];
    const { service } = await run({ engineArgs: hostile });
    await reaches(service!.id, "HEALTHY");
    const args = (await (await fetch(`${services.details(service!.id).url}/args`)).json()) as string[];
    expect(args.slice(-hostile.length)).toEqual(hostile);
    expect(existsSync(marker)).toBe(false);
    await services.stop(service!.id);
  });

  test("bad requests say what to fix", async () => {
    await expectApiError(run({ model: "acme/none" }), 404, "svc model add acme/none");
    await expectApiError(run({ revision: "c".repeat(40) }), 404, `Available: ${REV_NEW}`);
    await expectApiError(run({ model: "acme/ears" }), 400, "svc run speech-recognition acme/ears");
    await expectApiError(run({ name: "bad name; rm -rf /" }), 400, "--name");
    await expectApiError(run({ job: { time: "forever" } }), 400, "--time");
    await expectApiError(run({ textGeneration: { sharded: "true" }, job: { gres: 1 } }), 400, "--sharded true needs 2 or more GPUs");
    await expectApiError(run({ profile: "elsewhere" }), 404, "no profile elsewhere");
    await expectApiError(run({ engineArgs: ["line\nbreak"] }), 400, "control characters");
  });

  test("engine arguments cannot change where the server listens, what it serves or its key, however they are written", async () => {
    for (const arg of ["--host", "--host=0.0.0.0", "--hos", "--port=1", "--model", "--api-key", "--api-key-file=/x", "--input-dir"]) {
      await expectApiError(run({ engineArgs: ["--max-total-tokens", "64", arg, "0.0.0.0"] }), 400, "svc sets --");
    }
  });

  test("a speech service's input folder: any folder svc can read, links resolved; system folders and svc's own data refused with why", async () => {
    const speech = (inputDir?: string) => run({ task: "speech-recognition", model: "acme/ears", dryRun: true, speechRecognition: inputDir === undefined ? undefined : { inputDir } });
    const refusals: [string, string][] = [
      ["/", "it is the whole filesystem, which no job may see"],
      ["/etc", "it is in /etc, which holds the system's own files"],
      ["/proc/1", "it is in /proc"],
      ["/run/x", "it is in /run"],
      ["in/put", "give an absolute path"],
      [`${home}/in/../../x`, "give the path without '..'"],
      [join(home, "data"), "is in svc's own databases and keys"],
      [join(home, "data", "orchestrator"), "is in svc's own databases and keys"],
      [home, "holds svc's own databases and keys"],
      [join(home, "auth_token"), "is in svc's own token"],
    ];
    for (const [path, why] of refusals) await expectApiError(speech(path), 400, why);
    symlinkSync("/", join(home, "link-to-root"));
    await expectApiError(speech(join(home, "link-to-root", "etc")), 400, `--input-dir ${join(home, "link-to-root", "etc")}: it is /etc, which is in /etc`);
    expect(existsSync("/etc/svc-never-made")).toBe(false);
    expect((await speech(join(home, "audio", "in"))).script).toContain(`source=${join(home, "audio", "in")},target=/inputs,readonly`);
    expect(existsSync(join(home, "audio", "in"))).toBe(true);
    expect((await speech()).script).toContain(`source=${join(home, "inputs")},target=/inputs,readonly`);
    expect((await speech(join(inputRoot, "shared"))).script).toContain(`source=${join(inputRoot, "shared")},target=/inputs`);
  });

  test("ids resolve by unique prefix or name; an ambiguous prefix lists the candidates", async () => {
    const now = new Date().toISOString();
    const row = (id: string, name: string): NewServiceRow => ({
      id, name, task: "text-generation", model: "acme/tiny", revision: REV_NEW, profile: "default", status: "STOPPED", reason: null, host: null,
      port: null, engine: "docker", runtime: "x", handle: null, apiKey: null, spec: JSON.stringify({ job: {}, engineArgs: [], launch: {} }),
      createdBy: "test", createdAt: now, updatedAt: now,
    });
    store.insert(row("abcd0000-0000-4000-8000-000000000001", "first"), null);
    store.insert(row("abcd1111-0000-4000-8000-000000000002", "second"), null);
    expect(services.resolve("abcd1").id).toBe("abcd1111-0000-4000-8000-000000000002");
    expect(services.resolve("second").id).toBe("abcd1111-0000-4000-8000-000000000002");
    await expectApiError(Promise.resolve().then(() => services.resolve("abcd")), 409, "abcd0000-0000-4000-8000-000000000001 (first, STOPPED)");
    await expectApiError(Promise.resolve().then(() => services.resolve("ffffffff-0000")), 404, "svc ls --all");
  });

  test("a new orchestrator on the same records carries on with the running containers", async () => {
    const { service } = await run({ name: "survivor" });
    await reaches(service!.id, "HEALTHY");
    reconciler.stop();
    const second = build(join(home, "orchestrator.db"));
    second.reconciler.start();
    expect(second.store.list({ all: true }).filter((r) => r.id === service!.id)).toHaveLength(1);
    await second.services.stop(service!.id);
    await eventually(() => second.store.get(service!.id)?.status === "STOPPED", 20_000, "stop through the new orchestrator");
    second.reconciler.stop();
    reconciler.start();
  });
});
