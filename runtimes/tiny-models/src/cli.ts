/** `bun run make-tiny-models <cache dir>`: writes the tiny models and adapters and prints their snapshot folders. */
import { resolve } from "node:path";
import { makeTinyModels } from "./make-tiny-models";

const [cacheDir] = process.argv.slice(2);
if (!cacheDir || cacheDir.startsWith("-")) {
  console.error("usage: bun run make-tiny-models <Hugging Face cache dir>");
  process.exit(2);
}
const models = makeTinyModels(resolve(cacheDir));
console.log(`text-generation    ${models.textGeneration}`);
console.log(`speech-recognition ${models.speechRecognition}`);
console.log(`text-generation    ${models.textGenerationSafetensors}`);
console.log(`adapter (GGUF)     ${models.loraGguf}`);
console.log(`adapter (PEFT)     ${models.loraPeft}`);
