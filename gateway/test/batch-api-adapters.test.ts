/**
 * The Batch API with a LoRA adapter (issue 42): a file whose lines name an adapter becomes a batch
 * job of the adapter (the orchestrator runs it on its base), usage is recorded under the adapter's
 * name, a key limited to other models may not use it, and the orchestrator's refusal (a base not
 * registered) is answered as OpenAI's 4xx error, never a 500.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, type BatchDetails, type BatchRunRequest } from "@svc/contracts";
import { openGatewayDb } from "../src/db/connection";
import { BatchApiService } from "../src/batch-api/batches-service";
import { BatchStore } from "../src/batch-api/batch-store";
import { checkBatchFile } from "../src/batch-api/batch-file";
import { FileStore } from "../src/batch-api/file-store";
import type { Caller } from "../src/openai/caller";
import type { V1Outcome } from "../src/openai/outcome";
import { V1Error } from "../src/batch-api/v1-error";

const home = mkdtempSync(join(tmpdir(), "svc-batch-api-adapters-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const db = openGatewayDb(home);
const files = new FileStore(db, join(home, "files"));

const ADAPTER = "svc-tiny/tiny-llama-lora-gguf";
const runs: BatchRunRequest[] = [];
const recorded: V1Outcome[] = [];
const answer = (id: string, tokens: number) => JSON.stringify({ id: `r-${id}`, custom_id: id, response: { status_code: 200, request_id: "q", body: { model: ADAPTER, usage: { prompt_tokens: tokens, completion_tokens: 1 } } }, error: null });
const job = { id: "0b5e8c1a-7d4f-4c2e-9a61-3f0d2b7e9c10", name: "batch-1", status: "COMPLETED", reason: null, progress: null, model: "svc-tiny/tiny-llama-gguf", adapter: ADAPTER } as unknown as BatchDetails;
const client = {
  batches: {
    run: async (request: BatchRunRequest) => {
      runs.push(request);
      if (request.model === "acme/orphan-lora") throw new ApiError(404, "adapter_base_not_found", "acme/orphan-lora is a LoRA adapter (gguf) of acme/not-here, which is not in the registry of profile default", { field: "model" });
      return { matched: 1, revision: "r", warnings: [], script: "", batch: job };
    },
    get: async () => job,
    results: async () => `${answer("a", 3)}\n${answer("b", 4)}\n`,
    stop: async () => job,
  },
} as never;
const service = new BatchApiService({ batches: new BatchStore(db), files, client, record: (outcome) => recorded.push(outcome) });

const key = (models: string[] | null): Caller => ({ kind: "key", id: "k1", name: "team", models });
const upload = (model: string) => {
  const line = (id: string) => JSON.stringify({ custom_id: id, method: "POST", url: "/v1/chat/completions", body: { model, messages: [{ role: "user", content: id }] } });
  const text = `${line("a")}\n${line("b")}\n`;
  return files.add("key:k1", { filename: "requests.jsonl", purpose: "batch", data: new TextEncoder().encode(text), facts: checkBatchFile(text) });
};
const create = (caller: Caller, fileId: string) => service.create(caller, { input_file_id: fileId, endpoint: "/v1/chat/completions", completion_window: "24h" });

test("lines naming an adapter run as a batch job of the adapter; usage is recorded under the adapter's name", async () => {
  const created = (await create(key([ADAPTER]), upload(ADAPTER).id)) as { id: string };
  expect(runs.at(-1)).toMatchObject({ task: "openai", model: ADAPTER });
  const done = await service.retrieve(key([ADAPTER]), created.id);
  expect(done).toMatchObject({ status: "completed", request_counts: { total: 2, completed: 2, failed: 0 } });
  expect(recorded.map((outcome) => [outcome.model, outcome.usage])).toEqual([
    [ADAPTER, { promptTokens: 3, completionTokens: 1 }],
    [ADAPTER, { promptTokens: 4, completionTokens: 1 }],
  ]);
});

test("a key limited to the base may not use its adapter (each is a model of its own name)", async () => {
  const refused = await create(key(["svc-tiny/tiny-llama-gguf"]), upload(ADAPTER).id).catch((error) => error as V1Error);
  expect(refused).toBeInstanceOf(V1Error);
  expect({ status: (refused as V1Error).status, code: (refused as V1Error).code }).toEqual({ status: 403, code: "model_not_allowed" });
});

test("an adapter the orchestrator cannot run (its base not registered) is OpenAI's 404 with the reason, and no batch is kept", async () => {
  const refused = (await create(key(null), upload("acme/orphan-lora").id).catch((error) => error)) as V1Error;
  expect(refused).toBeInstanceOf(V1Error);
  expect({ status: refused.status, code: refused.code, param: refused.param }).toEqual({ status: 404, code: "adapter_base_not_found", param: "input_file_id" });
  expect(refused.message).toContain("acme/not-here, which is not in the registry of profile default");
  expect((await service.list(key(null), undefined, 20)).data.map((batch) => batch.id)).toHaveLength(1);
});
