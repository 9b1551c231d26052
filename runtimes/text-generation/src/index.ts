export { createTextGenerationApp, TEXT_GENERATION_PATHS } from "./app";
export { LlamaEngine, type ChatTurn, type GenerationOptions, type GenerationResult } from "./llama-engine";
