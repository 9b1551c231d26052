import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createServiceApp } from "@svc/platform";
import { INTERNAL_SECRET_HEADER } from "@svc/contracts";
import { checkedHandle, commitOf, files, writeCachedSnapshot, startFakeHub, tinyRepo, type FakeHub } from "@svc/testing";
import { modelsController } from "../src/models";
import { downloadsController } from "../src/downloads";
import { localProfile, makeServices, tempDir } from "./helpers";

const SECRET = "s".repeat(40);
const base = tempDir("api-");
const profile = localProfile("default", base);
let hub: FakeHub;
/** model-svc's app; every answer is checked against its part of the OpenAPI document. */
let handle: (request: Request) => Promise<Response>;
let services: ReturnType<typeof makeServices>;

beforeAll(async () => {
  hub = startFakeHub({ repos: [tinyRepo("acme/tiny-llm", "causal-lm")] });
  services = makeServices({ profiles: [profile], hubUrl: hub.url });
  handle = await checkedHandle(createServiceApp("model-svc", SECRET, [downloadsController(services.downloads), modelsController(services.models)]), SECRET);
});
afterAll(() => {
  hub.stop();
  services.close();
  rmSync(base, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown) {
  const response = await handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { [INTERNAL_SECRET_HEADER]: SECRET, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as any };
}

test("list, refresh and download over HTTP, with JSON errors for bad input", async () => {
  writeCachedSnapshot(join(profile.cache_dir, "models"), "openai/whisper-tiny", commitOf("w"), files.whisper());
  expect(await call("GET", "/api/models")).toEqual({ status: 200, body: [] });
  const refreshed = await call("POST", "/api/models/refresh", {});
  expect(refreshed.status).toBe(200);
  expect(refreshed.body.profiles[0]).toMatchObject({ profile: "default", added: 1 });
  const listed = await call("GET", "/api/models?image=speech-recognition");
  expect(listed.body.map((m: any) => m.repo)).toEqual(["openai/whisper-tiny"]);

  expect((await call("GET", "/api/models?image=vision")).status).toBe(400);
  const badRepo = await call("POST", "/api/models/downloads", { repo: "../../etc/passwd" });
  expect(badRepo.status).toBe(400);
  expect(badRepo.body).toMatchObject({ error: "invalid_request", message: expect.stringContaining("<owner>/<name>") });
  const badRevision = await call("POST", "/api/models/downloads", { repo: "acme/tiny-llm", revision: "../x" });
  expect(badRevision.body.message).toContain("branch, tag or 40-character commit");
  expect((await call("POST", "/api/models/refresh", { profile: "nope" })).status).toBe(404);
  expect((await call("GET", "/api/models/downloads/nope")).status).toBe(404);
  const missing = await call("POST", "/api/models/downloads", { repo: "acme/missing" });
  expect(missing.status).toBe(404);
  expect(missing.body.message).toContain("HF_TOKEN");

  const started = await call("POST", "/api/models/downloads", { repo: "acme/tiny-llm" });
  expect(started.status).toBe(202);
  let task = started.body;
  for (let i = 0; i < 500 && task.state === "running"; i++) {
    await Bun.sleep(20);
    task = (await call("GET", `/api/models/downloads/${started.body.id}`)).body;
  }
  expect(task).toMatchObject({ state: "completed", bytesDone: task.bytesTotal, model: { repo: "acme/tiny-llm", image: "text-generation" } });
  expect((await call("GET", "/api/models/downloads")).body[0].id).toBe(task.id);

  const openapi = await call("GET", "/openapi.json");
  expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(["/api/models", "/api/models/refresh", "/api/models/downloads", "/api/models/downloads/{id}"]));
});
