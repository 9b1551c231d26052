import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { initWhisper, type WhisperContext } from "@fugood/whisper.node";
import { WHISPER_SAMPLE_RATE } from "./resample";

export interface Segment {
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  text: string;
  language: string;
  duration: number;
  segments: Segment[];
}

export interface TranscribeOptions {
  language?: string;
  prompt?: string;
  temperature?: number;
}

const SMALL_MODEL_BYTES = 256 * 1024 * 1024;

/** whisper.cpp on CPU through @fugood/whisper.node's prebuilt binding. */
export class WhisperEngine {
  private constructor(
    private readonly context: WhisperContext,
    private readonly threads: number,
  ) {}

  static async load(modelFile: string, threads?: number): Promise<WhisperEngine> {
    const context = await initWhisper({ filePath: modelFile, useGpu: false });
    // On few cores small models run faster on one thread.
    const defaultThreads = statSync(modelFile).size < SMALL_MODEL_BYTES ? 1 : Math.max(1, availableParallelism());
    return new WhisperEngine(context, threads ?? defaultThreads);
  }

  /** `samples`: 16 kHz mono. Call one at a time. */
  async transcribe(samples: Float32Array, options: TranscribeOptions = {}): Promise<Transcript> {
    const duration = samples.length / WHISPER_SAMPLE_RATE;
    // The binding wants an ArrayBuffer holding exactly the samples: the decoder's own one usually is.
    const exact = samples.byteOffset === 0 && samples.buffer.byteLength === samples.byteLength && samples.buffer instanceof ArrayBuffer;
    const buffer = exact ? (samples.buffer as ArrayBuffer) : samples.slice().buffer;
    const { promise } = this.context.transcribeData(buffer, {
      language: options.language ?? "en",
      maxThreads: this.threads,
      temperature: options.temperature ?? 0,
      // No temperature fallback: one greedy pass, so a request's cost is predictable.
      temperatureInc: 0,
      prompt: options.prompt,
    });
    const result = await promise;
    const segments = result.segments.map((segment) => ({
      // The binding reports milliseconds.
      start: Math.min(segment.t0 / 1000, duration),
      end: Math.min(segment.t1 / 1000, duration),
      text: segment.text,
    }));
    return { text: result.result.trim(), language: result.language ?? options.language ?? "en", duration, segments };
  }
}
