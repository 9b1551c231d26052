/**
 * The text-generation runtime: `bun runtimes/text-generation/src/main.ts --model <snapshot dir>
 * --host H --port N [--api-key K] [--max-input-length N] [--max-total-tokens N] [engine options]`,
 * the engine options being the llama.cpp server ones of CPU_TEXT_GENERATION_OPTIONS (`--ctx-size`,
 * `--threads`, `--parallel`, …), and `--lora NAME=PATH` for each GGUF LoRA adapter served beside the
 * model (a request whose `model` is NAME generates with it). Listens at once (GET /health answers 503 while the model loads),
 * then serves the GGUF found in the snapshot folder.
 */
import { CPU_TEXT_GENERATION_OPTIONS, describeEngineOptions } from "@svc/contracts/engine-options";
import { findModelFile, parseRuntimeArgs, serveRuntime, UsageError, type RuntimeArgs } from "@svc/runtime-common";
import { createTextGenerationApp, TEXT_GENERATION_PATHS } from "./app";
import { engineSettings } from "./engine-settings";
import { LlamaEngine } from "./llama-engine";

const GGUF_MAGIC = new TextEncoder().encode("GGUF");

function readArgs(): RuntimeArgs {
  try {
    return parseRuntimeArgs(process.argv.slice(2), CPU_TEXT_GENERATION_OPTIONS);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    console.error(`text-generation: ${error.message}`);
    console.error("usage: runtime:text-generation --model <snapshot dir> [--host H] [--port N] [--api-key K] [--max-input-length N] [--max-total-tokens N] [engine options]");
    console.error(`engine options:\n  ${describeEngineOptions(CPU_TEXT_GENERATION_OPTIONS).join("\n  ")}`);
    process.exit(2);
  }
}

const args = readArgs();
const { app, direct, queue, registry, attachEngine, state } = createTextGenerationApp({
  modelName: args.model,
  apiKey: args.apiKey,
  maxInputLength: args.maxInputLength,
  maxTotalTokens: args.maxTotalTokens,
  parallel: typeof args.engine["--parallel"] === "number" ? args.engine["--parallel"] : 1,
});
const server = serveRuntime(app, registry, queue, TEXT_GENERATION_PATHS, args.host, args.port, direct);
console.log(`text-generation: listening on ${server.url}, loading ${args.model}`);

try {
  const modelFile = findModelFile(args.model, GGUF_MAGIC, "GGUF", ".gguf");
  const { settings, notices } = engineSettings(args, modelFile);
  for (const notice of notices) console.log(`text-generation: notice: ${notice}`);
  const engine = await LlamaEngine.load(settings, args.lora.map((adapter) => ({ name: adapter.name, filePath: adapter.path })));
  attachEngine(engine);
  const adapters = engine.adapters.length ? `, LoRA adapters ${engine.adapters.join(", ")}` : "";
  console.log(`text-generation: ready on ${server.url} (model ${modelFile}, ${engine.description}${adapters})`);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  state.markFailed(message);
  console.error(`text-generation: could not load the model: ${message}`);
  await server.stop();
  process.exit(1);
}
