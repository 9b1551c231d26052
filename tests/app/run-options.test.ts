/**
 * Issue 20's run options and `svc ls`, end to end through the CLI against a real app and Docker
 * (the fake runtime image stands in for the inference server, so starts, crashes and slow starts
 * can be told): ended services in `svc ls`, paging, --mount read-only in the container,
 * --grace-period, --image and the image variables, options that do nothing, details.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import { NEXT_CURSOR_HEADER, type AppInfo, type RuntimeImage, type ServiceStatus } from "@svc/contracts";
import { ensureDocker, eventually, fakeRuntimeImage, registerTinyModels, runSvc, sh, startSvc, TEXT_MODEL, type RunningSvc } from "@svc/testing";

let app: RunningSvc;
let client: SvcClient;
let env: Record<string, string>;
let image: string;
let pinned: string;
let folder: string;

const reaches = (id: string, wanted: ServiceStatus, ms = 60_000) =>
  eventually(async () => (await client.services.get(id)).status === wanted, ms, `${id} to be ${wanted}`);
const svc = (args: string[]) => runSvc(args, env);
const started = async (args: string[]) => {
  const run = await svc(["run", ...args]);
  expect(run.stderr).not.toContain("error");
  expect(run.code).toBe(0);
  return run.stdout.trim();
};
/** The `svc ls` row of a service, as printed. */
const row = (ls: string, id: string) => ls.split("\n").find((line) => line.startsWith(id.slice(0, 13))) ?? "";

beforeAll(async () => {
  ensureDocker();
  image = fakeRuntimeImage();
  pinned = "svc-test-fake-runtime:pinned-by-run";
  sh(["docker", "tag", image, pinned]);
  app = await startSvc({ env: { SVC_TEXT_GENERATION_IMAGE: image, SVC_SPEECH_RECOGNITION_IMAGE: image } });
  client = new SvcClient({ baseUrl: app.url });
  env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port) };
  const modelsHome = await registerTinyModels(client, app.home);
  folder = join(modelsHome, "corpus");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "notes.txt"), "hello");
}, 600_000);

afterAll(async () => {
  for (const service of (await client?.services.list({ all: true }).catch(() => [])) ?? []) await client.services.remove(service.id, { force: true }).catch(() => {});
  await app?.cleanup();
  Bun.spawnSync(["docker", "rmi", pinned]);
});

describe("svc ls shows ended services after the live ones", () => {
  test("a service that fails right after svc run shows as FAILED; one stopped shows as STOPPED", async () => {
    const live = await started(["text-generation", TEXT_MODEL, "--name", "stays"]);
    const failing = await started(["text-generation", TEXT_MODEL, "--name", "crashes", "--crash-after-ms", "200"]);
    await reaches(failing, "FAILED");
    const afterFailure = (await svc(["ls"])).stdout;
    expect(row(afterFailure, failing)).toMatch(/\bFAILED\b/);

    const stopped = await started(["text-generation", TEXT_MODEL, "--name", "stopped"]);
    await reaches(stopped, "HEALTHY");
    expect((await svc(["stop", stopped])).code).toBe(0);
    const afterStop = (await svc(["ls"])).stdout;
    expect(row(afterStop, stopped)).toMatch(/\bSTOPPED\b/);
    // Live first, then ended ones (newest first).
    const order = afterStop.split("\n").slice(1).map((line) => line.slice(0, 13));
    expect(order.indexOf(live.slice(0, 13))).toBeLessThan(order.indexOf(stopped.slice(0, 13)));
    expect(order.indexOf(stopped.slice(0, 13))).toBeLessThan(order.indexOf(failing.slice(0, 13)));
    // The API answers the same list; --filter by status still finds each.
    expect((await client.services.list()).map((s) => s.id)).toEqual(expect.arrayContaining([live, failing, stopped]));
    expect((await svc(["ls", "--filter", "status=failed"])).stdout).toContain(failing.slice(0, 13));
  });

  test("--all pages through the whole history with --limit and the cursor it prints", async () => {
    const everything = (await client.services.list({ all: true })).map((s) => s.id);
    expect(everything.length).toBeGreaterThanOrEqual(3);
    const first = await svc(["ls", "--all", "--limit", "2"]);
    const next = first.stdout.match(/More services follow: svc ls --all --limit 2 --cursor (\S+)/);
    expect(next).not.toBeNull();
    const seen = first.stdout.split("\n").slice(1, 3).map((line) => line.slice(0, 13));
    let cursor: string | undefined = next![1];
    while (cursor) {
      const page = await svc(["ls", "--all", "--limit", "2", "--cursor", cursor]);
      expect(page.code).toBe(0);
      seen.push(...page.stdout.split("\n").slice(1).filter((line) => /^[0-9a-f]{8}-/.test(line)).map((line) => line.slice(0, 13)));
      cursor = page.stdout.match(/--cursor (\S+)/)?.[1];
    }
    expect(seen).toEqual(everything.map((id) => id.slice(0, 13)));
    // Over REST: the cursor is the answer's X-Next-Cursor header.
    const answer = await fetch(`${app.url}/api/services?all=true&limit=1`);
    expect(answer.headers.get(NEXT_CURSOR_HEADER)).toBeTruthy();
    const bad = await fetch(`${app.url}/api/services?cursor=not-a-cursor`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain("is not one this API gave");
  });
});

describe("run options on a local profile (Docker)", () => {
  test("--dry-run shows each option as given and warns, naming each one, about those that do nothing here", async () => {
    const dry = await svc([
      "run", "--account", "proj-1", "--qos", "high", "text-generation", TEXT_MODEL, "--time", "10", "--partition", "gpu", "--constraint", "a100",
      "--ntasks-per-node", "2", "--reservation", "r1", "--exclude", "node[1-2]", "--nodelist", "n3", "--disable-custom-kernels",
      "--mount", folder, "--grace-period", "42", "--image", pinned, "--dry-run",
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain(
      "warning: --time, --ntasks-per-node, --partition, --constraint, --account, --qos, --reservation, --exclude and --nodelist do nothing on local profile default: they are Slurm job options, and Docker runs this service (it honours --mem and --gres).",
    );
    expect(dry.stderr).toContain("warning: --disable-custom-kernels does nothing on the CPU runtime: it applies to GPU engines (vLLM, with --gres 1 or more).");
    expect(dry.stdout).toContain(`--mount type=bind,source=${folder},target=${folder},readonly`);
    expect(dry.stdout).toContain("--label svc.grace-period=42");
    expect(dry.stdout).toContain(` ${pinned} --model `);
  });

  test("--mount is visible read-only in the container; details shows every option; --image pins this service's image", async () => {
    const id = await started(["text-generation", TEXT_MODEL, "--mount", folder, "--grace-period", "120", "--image", pinned, "--account", "proj-1"]);
    await reaches(id, "HEALTHY");
    const details = await client.services.get(id);
    expect(details.runtime).toBe(pinned);
    expect(details.mounts).toEqual([folder]);
    expect(details.gracePeriod).toBe(120);
    expect(details.job).toEqual({ account: "proj-1" });
    const seen = await (await fetch(`${details.url}/folder?dir=${encodeURIComponent(folder)}`)).json();
    expect(seen).toMatchObject({ files: ["notes.txt"], writable: false });
    expect(seen.error).toContain("read-only file system");
    const shown = (await svc(["details", id])).stdout;
    expect(shown).toContain("account=proj-1");
    expect(shown).toContain(`mounts        ${folder} (read-only)`);
    expect(shown).toContain("grace period  120 s");
    expect(shown).toContain(`runtime       ${pinned}`);
  });

  test("a service that fails its health check longer than --grace-period is UNHEALTHY, saying why", async () => {
    const id = await started(["text-generation", TEXT_MODEL, "--grace-period", "1", "--start-delay-ms", "600000"]);
    await reaches(id, "UNHEALTHY");
    expect((await client.services.get(id)).reason).toBe("its health check did not answer within the 1 s grace period after it started (--grace-period)");
  });

  test("hostile values are refused before anything starts, exit non-zero", async () => {
    const before = (await client.services.list({ all: true })).length;
    for (const args of [["--account", "a;id"], ["--nodelist", "n1 n2"], ["--mount", "/etc"], ["--mount", "relative/dir"], ["--image", "x;id"], ["--grace-period", "-1"]]) {
      const run = await svc(["run", "text-generation", TEXT_MODEL, ...args]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(args[0]);
    }
    expect((await client.services.list({ all: true })).length).toBe(before);
  });

  test("the image variables show in svc image ls and /api/info, with the variable that set each", async () => {
    const images: RuntimeImage[] = JSON.parse((await svc(["image", "ls", "--json"])).stdout);
    expect(images.find((i) => i.task === "speech-recognition")).toMatchObject({ image, setBy: "SVC_SPEECH_RECOGNITION_IMAGE", present: true });
    expect((await svc(["image", "ls"])).stdout).toContain("SVC_TEXT_GENERATION_IMAGE");
    const info: AppInfo = await (await fetch(`${app.url}/api/info`)).json();
    expect(info.images).toContainEqual({ task: "text-generation", engine: "svc", image, setBy: "SVC_TEXT_GENERATION_IMAGE" });
    expect(info.images).toContainEqual({ task: "text-generation", engine: "vllm", image: "vllm/vllm-openai:v0.28.0", setBy: null });
    expect(info.images).toContainEqual({ task: "text-generation", engine: "sglang", image: "lmsysorg/sglang:v0.5.18", setBy: null });
  });
});
