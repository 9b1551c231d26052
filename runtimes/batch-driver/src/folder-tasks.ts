import { readFileSync } from "node:fs";
// The subpath, not the index: the index reads the repository's package.json, which runtime images do not carry.
import { batchParamsProblem } from "@svc/contracts/batches";
import { basename, join } from "node:path";
import { writeAtomically } from "./atomic-write";
import { InputFailure, type RuntimeClient } from "./runtime-client";
import { toSrt, toVtt, type Segment } from "./subtitles";

export type FolderTask = "transcribe" | "chat" | "embed";

/** The output file whose presence marks an input done: written last, after any companion files. */
export function markerOutput(task: FolderTask, outputDir: string, item: string): string {
  return join(outputDir, `${withoutExtension(item)}${task === "chat" ? ".txt" : ".json"}`);
}

const withoutExtension = (item: string) => {
  const name = basename(item);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? item.slice(0, item.length - (name.length - dot)) : item;
};

const text = (params: Record<string, unknown>, key: string): string | undefined => (typeof params[key] === "string" ? (params[key] as string) : undefined);
const number = (params: Record<string, unknown>, key: string): number | undefined => (typeof params[key] === "number" ? (params[key] as number) : undefined);

/** Checks --params for a task before anything runs, naming what to fix (the rules are the orchestrator's too). */
export const checkParams = (task: FolderTask | "openai", params: Record<string, unknown>) => batchParamsProblem(task, params);

/** Runs one input through the runtime and writes its outputs (companions first, the marker last). */
export async function runFolderItem(task: FolderTask, client: RuntimeClient, inputDir: string, outputDir: string, item: string, params: Record<string, unknown>, tmpDir: string) {
  const input = join(inputDir, item);
  const stem = join(outputDir, withoutExtension(item));
  switch (task) {
    case "transcribe": {
      const form = new FormData();
      form.set("file", new Blob([readFileSync(input)]), basename(item));
      form.set("response_format", "verbose_json");
      const language = text(params, "language");
      if (language) form.set("language", language);
      const prompt = text(params, "prompt");
      if (prompt) form.set("prompt", prompt);
      const temperature = number(params, "temperature");
      if (temperature !== undefined) form.set("temperature", String(temperature));
      const result = await client.form<{ text: string; language?: string; duration?: number; segments?: Segment[] }>("/v1/audio/transcriptions", form);
      const segments = (result.segments ?? []).map((s) => ({ ...s }));
      writeAtomically(`${stem}.txt`, `${result.text.trim()}\n`, tmpDir);
      const format = text(params, "format");
      if (format === "srt") writeAtomically(`${stem}.srt`, toSrt(segments), tmpDir);
      if (format === "vtt") writeAtomically(`${stem}.vtt`, toVtt(segments), tmpDir);
      writeAtomically(`${stem}.json`, `${JSON.stringify({ input: item, text: result.text, language: result.language, duration: result.duration, segments }, null, 1)}\n`, tmpDir);
      return;
    }
    case "chat": {
      const content = readFileSync(input, "utf8");
      const template = text(params, "prompt") ?? "{text}";
      const system = text(params, "system");
      const messages = [...(system ? [{ role: "system", content: system }] : []), { role: "user", content: template.includes("{text}") ? template.replaceAll("{text}", content) : `${template}\n\n${content}` }];
      const body: Record<string, unknown> = { model: client.model ?? "batch", messages };
      for (const key of ["max_tokens", "temperature", "seed"]) if (params[key] !== undefined) body[key] = params[key];
      const result = await client.json<{ choices: { message: { content: string | null } }[] }>("/v1/chat/completions", body);
      const answer = result.choices?.[0]?.message?.content;
      if (typeof answer !== "string") throw new InputFailure("the runtime's answer has no message content");
      writeAtomically(`${stem}.txt`, answer, tmpDir);
      return;
    }
    case "embed": {
      const content = readFileSync(input, "utf8");
      if (!content.trim()) throw new InputFailure("the file is empty: nothing to embed");
      const result = await client.json<{ model: string; data: { embedding: number[] }[] }>("/v1/embeddings", { model: client.model ?? "batch", input: content });
      writeAtomically(`${stem}.json`, `${JSON.stringify({ input: item, model: result.model, embedding: result.data[0].embedding })}\n`, tmpDir);
      return;
    }
  }
}
