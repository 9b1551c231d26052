import { Counter, Histogram, type MetricsRegistry, type RequestQueue } from "@svc/runtime-common";
import type { InputFolder } from "./input-path";
import type { Transcript, TranscribeOptions, WhisperEngine } from "./whisper-engine";

export interface TranscriptionDeps {
  engine: () => WhisperEngine;
  queue: RequestQueue;
  metrics: TranscriptionMetrics;
  input: InputFolder;
}

export interface TranscriptionMetrics {
  audioSeconds: Counter;
  transcriptionSeconds: Histogram;
}

export function transcriptionMetrics(registry: MetricsRegistry): TranscriptionMetrics {
  return {
    audioSeconds: registry.add(new Counter("svc_audio_seconds_total", "Seconds of audio transcribed.")),
    transcriptionSeconds: registry.add(
      new Histogram("svc_transcription_duration_seconds", "Time from a request's turn on the engine to its transcript.", [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]),
    ),
  };
}

/** Transcribes once the engine is free (requests take turns in arrival order). */
export async function transcribe(deps: TranscriptionDeps, samples: Float32Array, options: TranscribeOptions): Promise<Transcript> {
  return deps.queue.run(async () => {
    const started = performance.now();
    try {
      const transcript = await deps.engine().transcribe(samples, options);
      deps.metrics.audioSeconds.inc({}, transcript.duration);
      return transcript;
    } finally {
      deps.metrics.transcriptionSeconds.observe((performance.now() - started) / 1000);
    }
  });
}
