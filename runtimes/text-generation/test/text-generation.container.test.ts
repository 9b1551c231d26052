/** The text-generation runtime in its image (built without a registry), driven by the `openai` client. */
import { afterAll, beforeAll, describe, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRuntimeContainer, type RuntimeContainer } from "@svc/runtime-common/testing";
import { makeTinyModels } from "@svc/runtime-tiny-models";
import {
  API_KEY,
  client,
  expectAuthErrors,
  expectChatCompletion,
  expectCompletion,
  expectConcurrentRequests,
  expectEmbeddings,
  expectLimitErrors,
  expectModels,
  expectSseFraming,
  expectStreamedChat,
} from "./openai-contract";

let cacheDir: string;
let modelPath: string;
let runtime: RuntimeContainer;

beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-tg-container-test-"));
  modelPath = makeTinyModels(cacheDir).textGeneration;
  // The snapshot's files are symlinks into blobs/: mount the whole cache at the same path.
  runtime = await startRuntimeContainer(
    "text-generation",
    ["--model", modelPath, "--api-key", API_KEY, "--max-input-length", "64", "--max-total-tokens", "128"],
    [{ source: cacheDir, target: cacheDir }],
  );
}, 180_000);

afterAll(async () => {
  await runtime?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe("text-generation runtime, in its container", () => {
  test("chat completion has the fields of spec §4.2 and OpenAI's schema", () => expectChatCompletion(client(runtime.url), modelPath));
  test("streamed chat carries the same text as the single response", () => expectStreamedChat(client(runtime.url), modelPath));
  test("every raw stream chunk has OpenAI's chunk shape, then data: [DONE]", () => expectSseFraming(runtime.url));
  test("completions, single and streamed", () => expectCompletion(client(runtime.url), modelPath));
  test("models lists the snapshot path", () => expectModels(client(runtime.url), modelPath));
  test("a wrong or missing key gets 401", () => expectAuthErrors(runtime.url, modelPath));
  test("requests over the limits get 400", () => expectLimitErrors(client(runtime.url), modelPath));
  test("five concurrent requests are all answered", () => expectConcurrentRequests(client(runtime.url), modelPath));
  test("embeddings: the client's base64, floats, batches, token ids and clear refusals", () => expectEmbeddings(client(runtime.url), runtime.url, modelPath));
});
