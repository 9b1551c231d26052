import { IMAGE_REFERENCE, type InferenceServer, type Task } from "@svc/contracts";
import { ConfigError } from "./parse";

/** Which image serves what: each task on the project's CPU runtime, and vLLM's and SGLang's servers (GPUs). */
export type ImageSlot = "text-generation" | "speech-recognition" | "vllm" | "sglang";

export interface ChosenImage {
  task: Task;
  engine: InferenceServer;
  image: string;
  /** The variable that set it, or null for svc's default. */
  setBy: string | null;
}

export const DEFAULT_IMAGES: Record<ImageSlot, string> = {
  "text-generation": "svc-text-generation:latest",
  "speech-recognition": "svc-speech-recognition:latest",
  // The versions whose options svc checks engine arguments against (orchestrator-svc/src/engines/options/).
  vllm: "vllm/vllm-openai:v0.28.0",
  sglang: "lmsysorg/sglang:v0.5.18",
};

/** Each image's variables, in order of preference (current name first). */
export const IMAGE_VARIABLES: Record<ImageSlot, string[]> = {
  "text-generation": ["SVC_TEXT_GENERATION_IMAGE", "SVC_RUNTIME_IMAGE_TEXT_GENERATION"],
  "speech-recognition": ["SVC_SPEECH_RECOGNITION_IMAGE", "SVC_RUNTIME_IMAGE_SPEECH_RECOGNITION"],
  vllm: ["SVC_VLLM_IMAGE", "SVC_TEXT_GENERATION_IMAGE"],
  sglang: ["SVC_SGLANG_IMAGE"],
};

/** An image whose name says vLLM runs vLLM's server (as engines/api-key.ts reads it). */
const namesVllm = (image: string) => /vllm/i.test(image);

function read(env: Record<string, string | undefined>, variable: string): string | undefined {
  const raw = env[variable]?.trim();
  if (!raw) return undefined;
  if (!IMAGE_REFERENCE.test(raw)) {
    throw new ConfigError(`${variable}=${JSON.stringify(env[variable])} is not an image reference: give one such as registry.example:5000/team/llama:1.2 (letters, digits, '.', '_', '-', '/', ':', '@', '+').`);
  }
  return raw;
}

/**
 * The images services run, pinned by the environment of `svc start`: SVC_TEXT_GENERATION_IMAGE and
 * SVC_SPEECH_RECOGNITION_IMAGE for each task (older names SVC_RUNTIME_IMAGE_*), SVC_VLLM_IMAGE and
 * SVC_SGLANG_IMAGE for GPU text generation. SVC_TEXT_GENERATION_IMAGE once named vLLM's image: a value that names vLLM is
 * still read so (when SVC_VLLM_IMAGE is not set). A bad value is a ConfigError naming the variable.
 */
export function loadImageChoices(env: Record<string, string | undefined> = process.env): ChosenImage[] {
  const pick = (slot: ImageSlot): { image: string; setBy: string | null } => {
    for (const variable of IMAGE_VARIABLES[slot]) {
      const image = read(env, variable);
      if (image === undefined) continue;
      // SVC_TEXT_GENERATION_IMAGE serves the slot its value fits: vLLM's, or the CPU runtime's.
      if (variable === "SVC_TEXT_GENERATION_IMAGE" && namesVllm(image) !== (slot === "vllm")) continue;
      return { image, setBy: variable };
    }
    return { image: DEFAULT_IMAGES[slot], setBy: null };
  };
  return [
    { task: "text-generation", engine: "svc", ...pick("text-generation") },
    { task: "speech-recognition", engine: "svc", ...pick("speech-recognition") },
    { task: "text-generation", engine: "vllm", ...pick("vllm") },
    { task: "text-generation", engine: "sglang", ...pick("sglang") },
  ];
}
