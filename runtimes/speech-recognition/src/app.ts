import { createRuntimeApp, EngineState, MetricsRegistry, RequestQueue } from "@svc/runtime-common";
import { openAiTranscriptionsRoute } from "./openai-transcriptions-route";
import { transcribeRoute } from "./transcribe-route";
import { transcriptionMetrics } from "./transcription";
import type { WhisperEngine } from "./whisper-engine";

export const SPEECH_RECOGNITION_PATHS = ["/health", "/metrics", "/transcribe", "/v1/audio/transcriptions"];

export interface SpeechRecognitionAppOptions {
  apiKey?: string;
  inputDir?: string;
  /** Where the input folder is on the service's host (defaults to inputDir). */
  inputHostDir?: string;
}

/** The speech-recognition HTTP app; call `attachEngine` once the model has loaded. */
export function createSpeechRecognitionApp(options: SpeechRecognitionAppOptions) {
  const state = new EngineState();
  const queue = new RequestQueue();
  const registry = new MetricsRegistry();
  let engine: WhisperEngine | undefined;
  const deps = {
    engine: () => {
      if (!engine) throw new Error("engine used before it was loaded");
      return engine;
    },
    queue,
    metrics: transcriptionMetrics(registry),
    input: { dir: options.inputDir, hostDir: options.inputHostDir },
  };
  const app = createRuntimeApp({
    apiKey: options.apiKey,
    engine: state,
    queue,
    metrics: registry,
    isInferencePath: (path) => path === "/transcribe" || path.startsWith("/v1/"),
  })
    .use(transcribeRoute(deps))
    .use(openAiTranscriptionsRoute(deps));
  return {
    app,
    state,
    queue,
    registry,
    attachEngine(loaded: WhisperEngine) {
      engine = loaded;
      state.markReady();
    },
  };
}
