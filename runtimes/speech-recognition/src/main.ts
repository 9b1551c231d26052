/**
 * The speech-recognition runtime: `bun runtimes/speech-recognition/src/main.ts --model <snapshot dir>
 * --host H --port N [--api-key K] [--input-dir D [--input-host-dir H]] [--threads N]`. Listens at once (GET /health
 * answers 503 while the model loads), then serves the whisper.cpp ggml model in the snapshot folder.
 */
import { existsSync, statSync } from "node:fs";
import { findModelFile, parseRuntimeArgs, serveRuntime, UsageError, type RuntimeArgs } from "@svc/runtime-common";
import { createSpeechRecognitionApp, SPEECH_RECOGNITION_PATHS } from "./app";
import { WhisperEngine } from "./whisper-engine";

// whisper.cpp's legacy ggml magic 0x67676d6c, as written little-endian.
const GGML_MAGIC = new Uint8Array([0x6c, 0x6d, 0x67, 0x67]);

function readArgs(): RuntimeArgs {
  try {
    const args = parseRuntimeArgs(process.argv.slice(2));
    if (args.inputDir !== undefined && !(existsSync(args.inputDir) && statSync(args.inputDir).isDirectory())) {
      throw new UsageError(`--input-dir ${args.inputDir} is not a folder`);
    }
    if (args.inputHostDir !== undefined && args.inputDir === undefined) throw new UsageError("--input-host-dir names where --input-dir is on the host: give both");
    return args;
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    console.error(`speech-recognition: ${error.message}`);
    console.error("usage: runtime:speech-recognition --model <snapshot dir> [--host H] [--port N] [--api-key K] [--input-dir D [--input-host-dir H]] [--threads N]");
    process.exit(2);
  }
}

const args = readArgs();
const { app, queue, registry, attachEngine, state } = createSpeechRecognitionApp({ apiKey: args.apiKey, inputDir: args.inputDir, inputHostDir: args.inputHostDir });
const server = serveRuntime(app, registry, queue, SPEECH_RECOGNITION_PATHS, args.host, args.port);
console.log(`speech-recognition: listening on ${server.url}, loading ${args.model}`);

try {
  const modelFile = findModelFile(args.model, GGML_MAGIC, "whisper.cpp ggml", ".bin");
  attachEngine(await WhisperEngine.load(modelFile, args.threads));
  console.log(`speech-recognition: ready on ${server.url} (model ${modelFile}, input folder ${args.inputDir ?? "none"}${args.inputHostDir ? ` = ${args.inputHostDir} on the host` : ""})`);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  state.markFailed(message);
  console.error(`speech-recognition: could not load the model: ${message}`);
  await server.stop();
  process.exit(1);
}
