export {
  makeTinyModels,
  TINY_SPEECH_REPO,
  TINY_TEXT_REPO,
  TINY_SAFETENSORS_REPO,
  TINY_LORA_GGUF_REPO,
  TINY_LORA_GGUF_FILE,
  TINY_LORA_PEFT_REPO,
  type TinyModels,
} from "./make-tiny-models";
export { TINY_LORA, TINY_LORA_TARGET_MODULES } from "./tiny-lora";
export { writeSnapshot } from "./hf-cache";
