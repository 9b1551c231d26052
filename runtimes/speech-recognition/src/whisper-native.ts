import { cc, dlopen, FFIType, ptr, type Pointer } from "bun:ffi";
import { createRequire } from "node:module";

/** A segment as whisper.cpp decoded it. */
export interface NativeSegment {
  /** Milliseconds. */
  t0: number;
  t1: number;
  text: string;
  /** whisper.cpp's probability of the no-speech token at the first step of the segment's window. */
  noSpeechProb: number;
  /** The tokens whisper.cpp sampled for the segment (text and timestamp tokens), with each one's log probability. */
  tokens: number[];
  logprobs: number[];
}

export interface NativeOptions {
  threads: number;
  language: string;
  prompt?: string;
  temperature: number;
}

const { i32, i64, f32, cstring } = FFIType;

/** The library's functions: those FFI calls directly, and those only the shim calls (by pointer). */
const API = {
  whisper_context_default_params_by_ref: { args: [], returns: "ptr" },
  whisper_full_default_params_by_ref: { args: [i32], returns: "ptr" },
  whisper_init_from_file_with_params: { args: [], returns: "void" },
  whisper_full: { args: [], returns: "void" },
  whisper_full_get_token_data: { args: [], returns: "void" },
  whisper_free: { args: ["ptr"], returns: "void" },
  whisper_full_n_segments: { args: ["ptr"], returns: i32 },
  whisper_full_get_segment_t0: { args: ["ptr", i32], returns: i64 },
  whisper_full_get_segment_t1: { args: ["ptr", i32], returns: i64 },
  whisper_full_get_segment_text: { args: ["ptr", i32], returns: cstring },
  whisper_full_get_segment_no_speech_prob: { args: ["ptr", i32], returns: f32 },
  whisper_full_n_tokens: { args: ["ptr", i32], returns: i32 },
  whisper_full_get_token_id: { args: ["ptr", i32, i32], returns: i32 },
  whisper_full_lang_id: { args: ["ptr"], returns: i32 },
  whisper_lang_str: { args: [i32], returns: cstring },
} as const;

const SHIM_API = {
  svc_layout_ok: { args: ["ptr", "ptr"], returns: i32 },
  svc_init: { args: ["ptr", "ptr", "ptr"], returns: "ptr" },
  svc_full: { args: ["ptr", "ptr", "ptr", "ptr", i32, i32, "ptr", "ptr", f32], returns: i32 },
  svc_token_logprob: { args: ["ptr", "ptr", i32, i32], returns: f32 },
} as const;

/** The native library of @fugood/whisper.node's package for this platform (its optional dependency). */
function libraryPath(): string {
  const binding = createRequire(import.meta.url).resolve("@fugood/whisper.node");
  return createRequire(binding).resolve(`@fugood/node-whisper-${process.platform}-${process.arch}/index.node`);
}

const cString = (text: string) => Buffer.from(`${text}\0`, "utf8");
/** A library function's address (bun:ffi gives each function one), for the shim to call it. */
const address = (fn: unknown) => (fn as { ptr: Pointer }).ptr;

/**
 * whisper.cpp through its C API, from the native library of @fugood/whisper.node (which exports the
 * whole API, while the package's JavaScript reports only each segment's text and times): so each
 * segment's no-speech probability and its tokens' log probabilities come from the engine. What
 * bun:ffi cannot do (structs by value) goes through whisper-shim.c, compiled on load by Bun's
 * TinyCC. Blocking: run it off the main thread (whisper-worker.ts).
 */
export class WhisperNative {
  private constructor(
    private readonly lib: ReturnType<typeof dlopen<typeof API>>["symbols"],
    private readonly shim: ReturnType<typeof cc<typeof SHIM_API>>["symbols"],
    private readonly ctx: Pointer,
    /** whisper_full_params with the library's greedy defaults; svc_full sets the per-request fields. */
    private readonly params: Pointer,
  ) {}

  static load(modelFile: string): WhisperNative {
    const { symbols: lib } = dlopen(libraryPath(), API);
    // No libc to link: runtime images have its shared object but not the files a linker wants. What the
    // shim needs from it (memmove, for the struct copies) is taken from this process when it is loaded.
    const { symbols: shim } = cc({ source: new URL("whisper-shim.c", import.meta.url).pathname, flags: ["-nostdlib"], symbols: SHIM_API });
    const contextParams = lib.whisper_context_default_params_by_ref();
    const params = lib.whisper_full_default_params_by_ref(0);
    if (!contextParams || !params || shim.svc_layout_ok(contextParams, params) !== 1) {
      throw new Error("the whisper.cpp library does not have the parameter layout svc was written for (@fugood/whisper.node 1.1.3)");
    }
    const path = cString(modelFile);
    const ctx = shim.svc_init(address(lib.whisper_init_from_file_with_params), contextParams, ptr(path));
    if (!ctx) throw new Error(`whisper.cpp could not load ${modelFile}`);
    return new WhisperNative(lib, shim, ctx as Pointer, params as Pointer);
  }

  /** `samples`: 16 kHz mono. */
  transcribe(samples: Float32Array, options: NativeOptions): { language: string; segments: NativeSegment[] } {
    if (samples.length === 0) return { language: options.language, segments: [] };
    const { lib, shim, ctx } = this;
    // Kept referenced until whisper_full returns: it reads them.
    const language = cString(options.language);
    const prompt = options.prompt ? cString(options.prompt) : null;
    const status = shim.svc_full(address(lib.whisper_full), ctx, this.params, ptr(samples), samples.length, options.threads, ptr(language), prompt && ptr(prompt), options.temperature);
    if (status !== 0) throw new Error(`whisper.cpp failed to transcribe (status ${status})`);
    const segments: NativeSegment[] = [];
    for (let i = 0, n = lib.whisper_full_n_segments(ctx); i < n; i++) {
      const tokens: number[] = [];
      const logprobs: number[] = [];
      for (let j = 0, count = lib.whisper_full_n_tokens(ctx, i); j < count; j++) {
        tokens.push(lib.whisper_full_get_token_id(ctx, i, j));
        logprobs.push(shim.svc_token_logprob(address(lib.whisper_full_get_token_data), ctx, i, j));
      }
      segments.push({
        // whisper.cpp counts in 10-ms steps.
        t0: Number(lib.whisper_full_get_segment_t0(ctx, i)) * 10,
        t1: Number(lib.whisper_full_get_segment_t1(ctx, i)) * 10,
        text: String(lib.whisper_full_get_segment_text(ctx, i) ?? ""),
        noSpeechProb: lib.whisper_full_get_segment_no_speech_prob(ctx, i),
        tokens,
        logprobs,
      });
    }
    const id = lib.whisper_full_lang_id(ctx);
    return { language: (id >= 0 ? lib.whisper_lang_str(id)?.toString() : undefined) || options.language, segments };
  }
}
