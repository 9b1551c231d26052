/// <reference lib="webworker" />
/**
 * The whisper.cpp engine on a thread of its own (whisper_full blocks until the transcript is done),
 * so the runtime's HTTP server answers meanwhile. Messages: `load`, then `transcribe` one at a time.
 */
import { WhisperNative, type NativeOptions } from "./whisper-native";

export type WorkerRequest = { kind: "load"; modelFile: string } | { kind: "transcribe"; samples: Float32Array; options: NativeOptions };
export type WorkerReply = { ok: true; value?: ReturnType<WhisperNative["transcribe"]> } | { ok: false; error: string };

declare const self: Worker;
let engine: WhisperNative | undefined;

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  try {
    if (request.kind === "load") {
      engine = WhisperNative.load(request.modelFile);
      self.postMessage({ ok: true } satisfies WorkerReply);
    } else {
      if (!engine) throw new Error("no model is loaded");
      self.postMessage({ ok: true, value: engine.transcribe(request.samples, request.options) } satisfies WorkerReply);
    }
  } catch (error) {
    self.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  }
};
