/**
 * OpenAI's Files and Batch API on /v1 with the official `openai` client, on Docker with the tiny
 * text model: upload, create, poll to completed, output keyed by custom_id and an error file for
 * the requests the runtime refused; list, retrieve, delete; another key sees none of it (404); a
 * bad purpose, endpoint or line is a 400 naming it; usage counted per key. Every answer is checked
 * against OpenAI's published shapes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { assertShape, BatchList, ChatCompletion, FileDeleted, FileList, FileObject, OpenAiErrorResponse } from "@svc/contracts/openai";
import type { UsageReport } from "@svc/contracts";
import { batchBecomes, chatBatchFile, resultLines, runSvc, startAppWithTinyModels, TEXT_MODEL, uploadBatchFile, type TinyApp } from "@svc/testing";

const TOKEN = "v1-batches-test-token-0123456789";
const REQUESTS = 12;
const JOB_MS = 240_000;
let tiny: TinyApp;
let alice: OpenAI;
let bob: OpenAI;
let aliceKey: string;

const openaiWith = (apiKey: string) => new OpenAI({ baseURL: `${tiny.app.url}/v1`, apiKey, maxRetries: 0 });

async function createKey(name: string): Promise<string> {
  const created = await runSvc(["key", "create", "--name", name], tiny.env);
  expect(created.code).toBe(0);
  return created.stdout.split("\n")[0].trim();
}

/** The refusal a call ends in: its status and OpenAI error body, checked against OpenAI's ErrorResponse. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string; param: string | null }> {
  const error = await call.then(
    () => undefined,
    (caught) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  const { status, error: body } = error as InstanceType<typeof OpenAI.APIError>;
  assertShape(OpenAiErrorResponse, { error: body }, `the ${status} answer`);
  return { status: status!, message: (body as { message: string }).message, param: (body as { param: string | null }).param };
}

beforeAll(async () => {
  tiny = await startAppWithTinyModels({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  aliceKey = await createKey("alice");
  alice = openaiWith(aliceKey);
  bob = openaiWith(await createKey("bob"));
}, 600_000);

afterAll(async () => {
  for (const batch of (await tiny?.client.batches.list({ all: true }).catch(() => [])) ?? []) await tiny.client.batches.remove(batch.id, { force: true }).catch(() => {});
  await tiny?.cleanup();
});

describe("the Batch API on Docker", () => {
  test("a bad purpose, line or endpoint is a 400 naming it", async () => {
    const wrongPurpose = await refusal(alice.files.create({ file: await OpenAI.toFile(Buffer.from(chatBatchFile(TEXT_MODEL, 1)), "x.jsonl"), purpose: "fine-tune" }));
    expect(wrongPurpose).toMatchObject({ status: 400, param: "purpose" });
    expect(wrongPurpose.message).toContain('purpose "fine-tune"');

    const badLine = await refusal(uploadBatchFile(alice, `${chatBatchFile(TEXT_MODEL, 2)}{"custom_id": "x", "method": "GET"}\n`));
    expect(badLine).toMatchObject({ status: 400, param: "file" });
    expect(badLine.message).toContain('line 3: method "GET"');
    const twoModels = await refusal(uploadBatchFile(alice, chatBatchFile(TEXT_MODEL, 1) + chatBatchFile("other/model", 1).replace("req-0", "other")));
    expect(twoModels.message).toContain("line 2: body.model");

    const file = await uploadBatchFile(alice, chatBatchFile(TEXT_MODEL, 2));
    const wrongEndpoint = await refusal(alice.batches.create({ input_file_id: file.id, endpoint: "/v1/embeddings", completion_window: "24h" }));
    expect(wrongEndpoint).toMatchObject({ status: 400, param: "endpoint" });
    expect(wrongEndpoint.message).toContain("/v1/chat/completions");
    const unknownEndpoint = await refusal(alice.batches.create({ input_file_id: file.id, endpoint: "/v1/images/generations" as "/v1/embeddings", completion_window: "24h" }));
    expect(unknownEndpoint.message).toContain('endpoint "/v1/images/generations": use one of');
    expect((await refusal(alice.batches.create({ input_file_id: "file-nothing", endpoint: "/v1/chat/completions", completion_window: "24h" }))).status).toBe(404);
    expect((await alice.files.delete(file.id)).deleted).toBe(true);
  });

  test(
    "upload, create, poll to completed: the output file has an answer per custom_id, the error file the refused request; another key gets 404; usage per key",
    async () => {
      const refused = { custom_id: "refused", method: "POST", url: "/v1/chat/completions", body: { model: TEXT_MODEL, messages: "not a list of messages" } };
      const input = await uploadBatchFile(alice, chatBatchFile(TEXT_MODEL, REQUESTS, [refused]));
      assertShape(FileObject, input, "files.create");
      expect(input).toMatchObject({ object: "file", purpose: "batch", filename: "requests.jsonl" });

      const created = await alice.batches.create({ input_file_id: input.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { project: "tests" } });
      expect(created).toMatchObject({ object: "batch", input_file_id: input.id, endpoint: "/v1/chat/completions", status: "validating", metadata: { project: "tests" } });
      const done = await batchBecomes(alice, created.id, ["completed"], JOB_MS);
      expect(done.request_counts).toEqual({ total: REQUESTS + 1, completed: REQUESTS, failed: 1 });
      expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
      expect(done.output_file_id).toBeString();
      expect(done.error_file_id).toBeString();

      const output = await resultLines(alice, done.output_file_id!);
      expect([...output.keys()].sort()).toEqual(Array.from({ length: REQUESTS }, (_, i) => `req-${i}`).sort());
      for (const line of output.values()) {
        expect(line.response!.status_code).toBe(200);
        assertShape(ChatCompletion, line.response!.body, `the answer to ${line.custom_id}`);
      }
      const errors = await resultLines(alice, done.error_file_id!);
      expect([...errors.keys()]).toEqual(["refused"]);
      expect(errors.get("refused")!.response!.status_code).toBe(400);

      // Lists, newest first; the output files are the key's own.
      const files = await alice.files.list();
      assertShape(FileList, await alice.files.list().asResponse().then((response) => response.json()), "files.list");
      expect(files.data.map((file) => file.id)).toEqual(expect.arrayContaining([input.id, done.output_file_id, done.error_file_id]));
      expect((await alice.files.retrieve(done.output_file_id!)).purpose).toBe("batch_output");
      const batches = await alice.batches.list({ limit: 10 });
      assertShape(BatchList, await alice.batches.list({ limit: 10 }).asResponse().then((response) => response.json()), "batches.list");
      expect(batches.data[0].id).toBe(created.id);

      // Another key sees nothing of it. Each call is made only once the one before it was answered: a
      // refusal that came before its handler was attached would end the test as an unhandled rejection.
      const asBob = [() => bob.batches.retrieve(created.id), () => bob.batches.cancel(created.id), () => bob.files.retrieve(input.id), () => bob.files.content(done.output_file_id!), () => bob.files.delete(input.id)];
      for (const call of asBob) expect((await refusal(call())).status).toBe(404);
      expect((await bob.files.list()).data).toEqual([]);
      expect((await bob.batches.list()).data).toEqual([]);

      // Usage: each request of the batch counted for alice's key, with its tokens.
      const usage = await runSvc(["usage", "--json", "--by", "key", "--since", "1h"], tiny.env);
      const report = JSON.parse(usage.stdout) as UsageReport;
      const prompt = [...output.values()].reduce((sum, line) => sum + line.response!.body.usage.prompt_tokens, 0);
      expect(report.groups.find((group) => group.group === "alice")).toMatchObject({ requests: REQUESTS + 1, errors: 1, promptTokens: prompt });

      const deleted = await alice.files.delete(input.id);
      assertShape(FileDeleted, deleted, "files.delete");
      expect((await refusal(alice.files.retrieve(input.id))).status).toBe(404);
      // The batch keeps its record; its output stays readable.
      expect((await alice.batches.retrieve(created.id)).status).toBe("completed");
      expect((await resultLines(alice, done.output_file_id!)).size).toBe(REQUESTS);
    },
    JOB_MS + 60_000,
  );
});
