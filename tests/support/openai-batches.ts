import type OpenAI from "openai";
import { assertShape, BatchObject, BatchRequestOutput } from "@svc/contracts/openai";
import { eventually } from "./svc-app";

/** An OpenAI batch input file of `count` chat requests to `model`, custom_ids `req-0`…; `extra` lines appended as given. */
export function chatBatchFile(model: string, count: number, extra: object[] = [], maxTokens = 4): string {
  const lines = Array.from({ length: count }, (_, i) => ({
    custom_id: `req-${i}`,
    method: "POST",
    url: "/v1/chat/completions",
    body: { model, messages: [{ role: "user", content: `Say something about the number ${i}.` }], max_tokens: maxTokens, temperature: 0 },
  }));
  return [...lines, ...extra].map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** Uploads a batch input with the official client (files.create, purpose batch). */
export const uploadBatchFile = async (openai: OpenAI, text: string, name = "requests.jsonl") => openai.files.create({ file: await (await import("openai")).toFile(Buffer.from(text), name), purpose: "batch" });

const FINAL = ["completed", "failed", "expired", "cancelled"];

/** One line of a batch's output or error file. */
export interface ResultLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: any } | null;
  error: { code: string; message: string } | null;
}

/** Polls batches.retrieve until the batch is in one of `wanted`; each answer is checked against OpenAI's `Batch`. */
export async function batchBecomes(openai: OpenAI, id: string, wanted: string[], ms: number): Promise<OpenAI.Batches.Batch> {
  let batch: OpenAI.Batches.Batch | undefined;
  await eventually(async () => {
    batch = await openai.batches.retrieve(id);
    assertShape(BatchObject, batch, `batch ${id}`);
    return wanted.includes(batch.status) || FINAL.includes(batch.status);
  }, ms, `batch ${id} to be ${wanted.join(" or ")}`).catch((error) => {
    throw new Error(`${(error as Error).message} (last seen: ${JSON.stringify(batch)})`);
  });
  if (!wanted.includes(batch!.status)) throw new Error(`batch ${id} is ${batch!.status}, not ${wanted.join(" or ")}: ${JSON.stringify(batch)}`);
  return batch!;
}

/** A batch output or error file's lines by custom_id, each checked against OpenAI's `BatchRequestOutput`. */
export async function resultLines(openai: OpenAI, fileId: string): Promise<Map<string, ResultLine>> {
  const text = await (await openai.files.content(fileId)).text();
  const lines = new Map<string, ResultLine>();
  for (const raw of text.split("\n").filter(Boolean)) {
    const line = JSON.parse(raw);
    assertShape(BatchRequestOutput, line, `a line of ${fileId}`);
    lines.set(line.custom_id, line);
  }
  return lines;
}
