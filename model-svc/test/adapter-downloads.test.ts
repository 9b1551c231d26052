/** `svc model add` of a LoRA adapter repo: downloaded like a model, registered as an adapter of its base. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeTinyModels, TINY_LORA_GGUF_REPO, TINY_LORA_PEFT_REPO, TINY_SAFETENSORS_REPO, TINY_TEXT_REPO } from "@svc/runtime-tiny-models";
import { commitFor, startFakeHub, type FakeHub, type FakeRepo } from "@svc/testing";
import { localProfile, makeServices, tempDir } from "./helpers";

const base = tempDir("adapter-downloads-");
const profile = localProfile("default", base);
let hub: FakeHub;

/** A hub repo with the files of a generated snapshot (weights as LFS files, as the hub stores them). */
function hubRepo(id: string, dir: string): FakeRepo {
  const files = readdirSync(dir).map((path) => ({ path, content: readFileSync(join(dir, path)), lfs: /\.(safetensors|gguf)$/.test(path) }));
  return { id, commits: { [commitFor(id)]: files }, refs: { main: commitFor(id) } };
}

beforeAll(() => {
  const tiny = makeTinyModels(join(base, "source"));
  hub = startFakeHub({
    repos: [hubRepo(TINY_LORA_PEFT_REPO, tiny.loraPeft), hubRepo(TINY_LORA_GGUF_REPO, tiny.loraGguf), hubRepo(TINY_SAFETENSORS_REPO, tiny.textGenerationSafetensors)],
  });
});
afterAll(() => {
  hub.stop();
  rmSync(base, { recursive: true, force: true });
});

test("a PEFT adapter and a GGUF adapter are downloaded and registered as adapters; the base, added after, is then registered for them", async () => {
  const s = makeServices({ profiles: [profile], hubUrl: hub.url });
  const peft = await s.downloads.settled((await s.downloads.start({ repo: TINY_LORA_PEFT_REPO })).id);
  expect(peft.state).toBe("completed");
  expect(peft.model).toMatchObject({ repo: TINY_LORA_PEFT_REPO, image: "text-generation", partial: false, adapter: { kind: "peft", base: TINY_SAFETENSORS_REPO, rank: 8 } });
  expect(peft.model?.adapterBase).toMatchObject({ state: "not_registered", message: `Base ${TINY_SAFETENSORS_REPO} is not in the registry of profile default: svc model add ${TINY_SAFETENSORS_REPO}` });

  // Only the GGUF: *.gguf selects the adapter's file.
  const gguf = await s.downloads.settled((await s.downloads.start({ repo: TINY_LORA_GGUF_REPO, include: ["*.gguf"] })).id);
  expect(gguf.state).toBe("completed");
  expect(gguf.filesTotal).toBe(1);
  expect(gguf.model).toMatchObject({ partial: true, adapter: { kind: "gguf", base: TINY_TEXT_REPO, layers: 2 } });

  const baseModel = await s.downloads.settled((await s.downloads.start({ repo: TINY_SAFETENSORS_REPO })).id);
  expect(baseModel.model?.adapter).toBeUndefined();
  expect(s.models.list({ repo: TINY_LORA_PEFT_REPO })[0].adapterBase?.state).toBe("registered");
  s.close();
});

test("adapter_config.json and adapter_model.safetensors alone (--include 'adapter_*') make a registered adapter", async () => {
  const s = makeServices({ profiles: [localProfile("other", base)], hubUrl: hub.url });
  const task = await s.downloads.settled((await s.downloads.start({ repo: TINY_LORA_PEFT_REPO, profile: "other", include: ["adapter_*"] })).id);
  expect(task.state).toBe("completed");
  expect(task.filesTotal).toBe(2);
  expect(task.model).toMatchObject({ partial: true, adapter: { kind: "peft", file: "adapter_model.safetensors" } });
  s.close();
});
