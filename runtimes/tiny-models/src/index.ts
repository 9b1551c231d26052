export { makeTinyModels, TINY_SPEECH_REPO, TINY_TEXT_REPO, type TinyModels } from "./make-tiny-models";
export { writeSnapshot } from "./hf-cache";
