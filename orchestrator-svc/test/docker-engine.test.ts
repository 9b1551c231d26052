import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Task } from "@svc/contracts";
import { ensureDocker, fakeRuntimeImage, eventually, freePort } from "@svc/testing";
import { DockerApi } from "../src/engines/docker/docker-api";
import { DockerEngine } from "../src/engines/docker/docker-engine";
import type { LaunchSpec } from "../src/engines/engine";
import { modelMount } from "../src/engines/model-folder";

let engine: DockerEngine;
let image: string;
const handles: string[] = [];
const modelDir = mkdtempSync(join(tmpdir(), "svc-model-"));
/** The port the engine gives the next service (it picks its ports; the test names them to check them). */
let nextPort = 0;
const keysDir = join(mkdtempSync(join(tmpdir(), "svc-keys-")), "api-keys");
const options = (homeLabel: string) => ({ network: "host" as const, homeLabel, keysDir, freePort: async () => nextPort, projectTask: () => undefined, projectImage: (task: Task) => `svc-${task}:latest` });

beforeAll(() => {
  ensureDocker();
  image = fakeRuntimeImage();
  engine = new DockerEngine(DockerApi.fromEnv(), options(`test-${process.pid}`));
});
afterAll(async () => {
  for (const handle of handles) await engine.release(handle);
});

async function spec(args: string[] = [], apiKey?: string): Promise<LaunchSpec & { port: number }> {
  nextPort = await freePort();
  return { serviceId: crypto.randomUUID(), name: "svc-test", task: "text-generation", image, args, apiKey, modelDir, job: {}, port: nextPort };
}

interface Inspected {
  Config: { Cmd: string[]; User: string; Env: string[] };
  HostConfig: { CapDrop: string[]; SecurityOpt: string[]; PidsLimit: number; ReadonlyRootfs: boolean; NetworkMode: string };
}

describe("model mounts", () => {
  test("a Hugging Face snapshot mounts its whole repo folder (its files link into blobs/)", () => {
    expect(modelMount("/h/models/models--acme--tiny/snapshots/" + "a".repeat(40))).toBe("/h/models/models--acme--tiny");
    expect(modelMount("/somewhere/else")).toBe("/somewhere/else");
  });
});

describe("Docker engine", () => {
  test("a submitted container runs with host networking on loopback and answers on its port; its key is a file, not an argument", async () => {
    const launch = await spec([], "k e y");
    const submitted = await engine.submit(launch);
    handles.push(submitted.handle);
    expect(submitted).toMatchObject({ host: "127.0.0.1", port: launch.port });
    await eventually(async () => (await fetch(`http://127.0.0.1:${launch.port}/health`)).ok, 15_000, "the container to answer");
    const observed = await engine.inspect([submitted.handle]);
    expect(observed.get(submitted.handle)).toEqual({ phase: "running", host: "127.0.0.1", port: launch.port });
    const args = await (await fetch(`http://127.0.0.1:${launch.port}/args`)).json();
    expect(args).toEqual(["--model", modelDir, "--host", "127.0.0.1", "--port", String(launch.port), "--api-key-file", "/run/secrets/svc-api-key"]);
    const answer = await (await fetch(`http://127.0.0.1:${launch.port}/v1/models`, { headers: { authorization: "Bearer k e y" } })).json();
    expect(answer.authorized).toBe(true);
    const inspected = await DockerApi.fromEnv().json<Inspected>("GET", `/containers/${submitted.handle}/json`);
    expect(JSON.stringify(inspected)).not.toContain("k e y");
    const keyFile = join(keysDir, launch.serviceId);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(keysDir).mode & 0o777).toBe(0o700);
    await engine.stop(submitted.handle);
    await engine.release(submitted.handle);
    expect(existsSync(keyFile)).toBe(false);
  });

  test("the container holds no power it does not need: not root, no capabilities, no privilege gain, read-only but /tmp, bounded processes", async () => {
    const launch = await spec();
    const submitted = await engine.submit(launch);
    handles.push(submitted.handle);
    await eventually(async () => (await fetch(`http://127.0.0.1:${launch.port}/health`)).ok, 15_000, "the container to answer");
    const inspected = await DockerApi.fromEnv().json<Inspected>("GET", `/containers/${submitted.handle}/json`);
    expect(inspected.Config.User).toMatch(/^[1-9][0-9]*:[0-9]+$/);
    expect(inspected.HostConfig).toMatchObject({ CapDrop: ["ALL"], SecurityOpt: ["no-new-privileges"], ReadonlyRootfs: true });
    expect(inspected.HostConfig.PidsLimit).toBeGreaterThan(0);
    const sandbox = await (await fetch(`http://127.0.0.1:${launch.port}/sandbox`)).json();
    expect(sandbox).toMatchObject({ capEff: "0000000000000000", noNewPrivs: "1", rootWritable: false, tmpWritable: true });
    expect(sandbox.uid).not.toBe(0);
  });

  test("the dry-run line is the command that created the container", async () => {
    const launch = await spec(["--max-total-tokens", "64", "$(touch /tmp/svc-pwned)"]);
    const line = await engine.render(launch);
    expect(line).toStartWith(`docker run --detach --init --name svc-${launch.serviceId} `);
    expect(line).toContain(
      `--network host --mount type=bind,source=${modelDir},target=${modelDir},readonly ${image} --model ${modelDir} --host 127.0.0.1 --port ${launch.port} --max-total-tokens 64 '$(touch /tmp/svc-pwned)'`,
    );
    const submitted = await engine.submit(launch);
    handles.push(submitted.handle);
    const inspected = await DockerApi.fromEnv().json<{ Config: { Cmd: string[] } }>("GET", `/containers/${submitted.handle}/json`);
    const words = Bun.spawnSync(["sh", "-c", `printf '%s\\0' ${line}`]).stdout.toString().split("\0").slice(0, -1);
    expect(words.slice(words.indexOf(image) + 1)).toEqual(inspected.Config.Cmd);
  });

  test("a crashing container is reported as exited with its code and last output", async () => {
    const submitted = await engine.submit(await spec(["--crash-after-ms", "300"]));
    handles.push(submitted.handle);
    await eventually(async () => (await engine.inspect([submitted.handle])).get(submitted.handle)?.phase === "exited", 15_000, "the crash");
    const observed = (await engine.inspect([submitted.handle])).get(submitted.handle);
    expect(observed).toMatchObject({ phase: "exited", outcome: "failed" });
    expect((observed as { reason: string }).reason).toContain("exited with code 3");
    expect((observed as { reason: string }).reason).toContain("boom, crashing on purpose");
  });

  test("stop, logs, release, and events", async () => {
    const changed: string[] = [];
    const unwatch = engine.watch((id) => changed.push(id));
    const launch = await spec();
    const submitted = await engine.submit(launch);
    handles.push(submitted.handle);
    await eventually(async () => (await fetch(`http://127.0.0.1:${launch.port}/health`)).ok, 15_000, "the container to answer");
    const logs = await new Response(await engine.logs(submitted.handle, { follow: false })).text();
    expect(logs).toContain(`fake runtime listening on 127.0.0.1:${launch.port}`);
    await engine.stop(submitted.handle);
    expect((await engine.inspect([submitted.handle])).get(submitted.handle)?.phase).toBe("exited");
    await eventually(() => changed.includes(submitted.handle), 5000, "a start or stop event");
    unwatch();
    await engine.release(submitted.handle);
    expect((await engine.inspect([submitted.handle])).get(submitted.handle)).toEqual({ phase: "missing" });
  });

  test("another home folder's manager does not see these containers", async () => {
    const submitted = await engine.submit(await spec());
    handles.push(submitted.handle);
    const other = new DockerEngine(DockerApi.fromEnv(), options("another-home"));
    expect((await other.inspect([submitted.handle])).get(submitted.handle)).toEqual({ phase: "missing" });
  });
});
