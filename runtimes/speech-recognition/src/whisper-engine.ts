import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { WHISPER_SAMPLE_RATE } from "./resample";
import type { WorkerReply, WorkerRequest } from "./whisper-worker";

export interface Segment {
  start: number;
  end: number;
  text: string;
  /** The tokens whisper.cpp sampled for the segment (text and timestamp tokens). */
  tokens: number[];
  /** The mean log probability of those tokens, from the engine. */
  avgLogprob: number;
  /** whisper.cpp's probability of the no-speech token for the segment's window. */
  noSpeechProb: number;
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

/** whisper.cpp on CPU, through the C API of @fugood/whisper.node's prebuilt library, on a worker thread. */
export class WhisperEngine {
  private constructor(
    private readonly worker: Worker,
    private readonly threads: number,
  ) {}

  static async load(modelFile: string, threads?: number): Promise<WhisperEngine> {
    const worker = new Worker(new URL("./whisper-worker.ts", import.meta.url).href);
    // On few cores small models run faster on one thread.
    const defaultThreads = statSync(modelFile).size < SMALL_MODEL_BYTES ? 1 : Math.max(1, availableParallelism());
    const engine = new WhisperEngine(worker, threads ?? defaultThreads);
    try {
      await engine.ask({ kind: "load", modelFile });
    } catch (error) {
      worker.terminate();
      throw error;
    }
    return engine;
  }

  private ask(request: WorkerRequest, transfer: Transferable[] = []): Promise<WorkerReply & { ok: true }> {
    return new Promise((resolve, reject) => {
      this.worker.onmessage = (event: MessageEvent<WorkerReply>) => (event.data.ok ? resolve(event.data) : reject(new Error(event.data.error)));
      this.worker.onerror = (event) => reject(new Error(event.message));
      this.worker.postMessage(request, transfer);
    });
  }

  /** `samples`: 16 kHz mono. Call one at a time. */
  async transcribe(samples: Float32Array, options: TranscribeOptions = {}): Promise<Transcript> {
    const duration = samples.length / WHISPER_SAMPLE_RATE;
    const language = options.language ?? "en";
    const { value } = await this.ask({ kind: "transcribe", samples, options: { threads: this.threads, language, prompt: options.prompt, temperature: options.temperature ?? 0 } });
    const segments = value!.segments.map((segment) => ({
      start: Math.min(segment.t0 / 1000, duration),
      end: Math.min(segment.t1 / 1000, duration),
      text: segment.text,
      tokens: segment.tokens,
      avgLogprob: segment.logprobs.length > 0 ? segment.logprobs.reduce((sum, logprob) => sum + logprob, 0) / segment.logprobs.length : 0,
      noSpeechProb: segment.noSpeechProb,
    }));
    return { text: segments.map((segment) => segment.text).join("").trim(), language: value!.language || language, duration, segments };
  }
}
