/**
 * LoRA adapters served on a base, end to end on Docker (issue 42, part 2): `svc run BASE --adapter`
 * starts one service that serves the base and the tiny GGUF adapter as two models of /v1; a chat
 * naming the adapter answers differently from the base's; `svc adapter rm|add` unload and load it
 * while the service runs (the same container throughout); usage is recorded per adapter.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LORA_GGUF, LORA_PEFT, runSvc, startAppWithTinyModels, TEXT_MODEL, waitForReplicas, type TinyApp } from "@svc/testing";

let tiny: TinyApp;
let id: string;

beforeAll(async () => {
  tiny = await startAppWithTinyModels();
  id = await tiny.serving(["text-generation", TEXT_MODEL, "--name", "with-lora", "--adapter", LORA_GGUF, "--threads", "1", "--ctx-size", "256"]);
}, 600_000);

afterAll(async () => {
  // A deployment first: its scaler would start its replica again.
  for (const d of (await tiny?.client.deployments.list({ all: true }).catch(() => [])) ?? []) await tiny.client.deployments.remove(d.id, { force: true }).catch(() => {});
  await tiny?.cleanup();
});

const svc = (...args: string[]) => runSvc(args, tiny.env);

async function chat(model: string): Promise<{ status: number; model?: string; text?: string; service: string | null }> {
  const response = await fetch(`${tiny.app.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "Hello world, tell me" }], max_tokens: 12, temperature: 0, seed: 7 }),
  });
  const body = (await response.json()) as { model?: string; choices?: { message: { content: string } }[] };
  return { status: response.status, model: body.model, text: body.choices?.[0].message.content, service: response.headers.get("x-svc-service") };
}

const modelIds = async () => ((await (await fetch(`${tiny.app.url}/v1/models`)).json()) as { data: { id: string; parent?: string }[] }).data;

describe("a base and its adapter from one service", () => {
  test("svc model ls shows the tiny adapter with its base", async () => {
    const ls = await svc("model", "ls", "--kind", "adapter");
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(new RegExp(`^${LORA_GGUF} .* ${TEXT_MODEL} `, "m"));
  });

  test("/v1/models lists the base and the adapter (its parent the base); svc details and ls show the adapter", async () => {
    const models = await modelIds();
    expect(models.find((model) => model.id === LORA_GGUF)).toMatchObject({ parent: TEXT_MODEL });
    expect(models.some((model) => model.id === TEXT_MODEL)).toBe(true);
    const details = await svc("details", id);
    expect(details.stdout).toContain(`adapters      ${LORA_GGUF} (LoRA, each a model of /v1)`);
    const ls = await svc("ls");
    expect(ls.stdout).toContain(`${TEXT_MODEL} +1 adapter`);
  });

  test("a chat naming the adapter answers differently from the base's, from the same service; usage is recorded under the adapter", async () => {
    const base = await chat(TEXT_MODEL);
    const adapted = await chat(LORA_GGUF);
    expect(base.status).toBe(200);
    expect(adapted.status).toBe(200);
    expect(adapted.service).toBe(id);
    expect(base.service).toBe(id);
    expect(adapted.model).toBe(LORA_GGUF);
    expect(adapted.text).not.toBe(base.text);
    const usage = JSON.parse((await svc("usage", "--by", "model", "--json")).stdout) as { groups: { group: string; requests: number }[] };
    expect(usage.groups.find((group) => group.group === LORA_GGUF)?.requests).toBe(1);
    expect(usage.groups.find((group) => group.group === TEXT_MODEL)?.requests).toBe(1);
  });

  test("svc adapter rm, then add: unloaded and loaded again without a restart, each an event", async () => {
    const before = await tiny.client.services.get(id);
    const adapted = await chat(LORA_GGUF);
    const removed = await svc("adapter", "rm", id, LORA_GGUF);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await modelIds()).some((model) => model.id === LORA_GGUF)).toBe(false);
    expect((await chat(LORA_GGUF)).status).toBe(404);

    const added = await svc("adapter", "add", id, LORA_GGUF);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`serves ${TEXT_MODEL} with ${LORA_GGUF}`);
    expect((await chat(LORA_GGUF)).text).toBe(adapted.text);
    const after = await tiny.client.services.get(id);
    expect(after.handle).toBe(before.handle);
    expect(after.status).toBe("HEALTHY");
    const reasons = after.events.map((event) => event.reason ?? "");
    expect(reasons.some((reason) => reason.startsWith(`LoRA adapter ${LORA_GGUF} removed`))).toBe(true);
    expect(reasons.some((reason) => reason.startsWith(`LoRA adapter ${LORA_GGUF} added`))).toBe(true);
  });

  test("a deployment's replicas serve its adapters; svc adapter rm|add on the deployment changes every replica in place", async () => {
    const run = await svc("run", "text-generation", TEXT_MODEL, "--name", "lora-dep", "--replicas", "1..1", "--adapter", LORA_GGUF, "--threads", "1", "--ctx-size", "256");
    expect(run.code, run.stderr).toBe(0);
    const [replica] = (await waitForReplicas(tiny.client, "lora-dep", { healthy: 1 }, 180_000)).replicas;
    expect(replica.adapters).toEqual([LORA_GGUF]);
    const removed = await svc("adapter", "rm", "lora-dep", LORA_GGUF);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("Deployment lora-dep serves");
    expect((await tiny.client.deployments.get("lora-dep")).adapters).toBeUndefined();
    const added = await svc("adapter", "add", "lora-dep", LORA_GGUF);
    expect(added.code, added.stderr).toBe(0);
    const details = await tiny.client.deployments.get("lora-dep");
    expect(details.adapters).toEqual([LORA_GGUF]);
    expect(details.replicas[0]).toMatchObject({ id: replica.id, handle: replica.handle, status: "HEALTHY", adapters: [LORA_GGUF] });
    expect(details.events.at(-1)!.message).toContain(`LoRA adapter ${LORA_GGUF} added: served by every replica`);
    await svc("stop", "lora-dep");
  });

  test("refused before anything starts: a PEFT adapter on the CPU runtime, an adapter added twice", async () => {
    const peft = await svc("run", "text-generation", TEXT_MODEL, "--adapter", LORA_PEFT, "--dry-run");
    expect(peft.code).not.toBe(0);
    expect(peft.stderr).toContain("the CPU runtime serves GGUF LoRA adapters; convert with llama.cpp's convert_lora_to_gguf.py or run on vLLM/SGLang");
    const twice = await svc("adapter", "add", id, LORA_GGUF);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toContain(`serves ${LORA_GGUF} already`);
  });
});
