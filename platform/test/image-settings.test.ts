/** SVC_TEXT_GENERATION_IMAGE / SVC_SPEECH_RECOGNITION_IMAGE / SVC_VLLM_IMAGE: the images the app runs, and who pinned them. */
import { expect, test } from "bun:test";
import { ConfigError, loadImageChoices } from "../src/config";

const pick = (env: Record<string, string>) => Object.fromEntries(loadImageChoices(env).map((c) => [`${c.task}/${c.engine}`, [c.image, c.setBy]]));

test("defaults, each set by nobody", () => {
  expect(pick({})).toEqual({
    "text-generation/svc": ["svc-text-generation:latest", null],
    "speech-recognition/svc": ["svc-speech-recognition:latest", null],
    "text-generation/vllm": ["vllm/vllm-openai:v0.28.0", null],
    "text-generation/sglang": ["lmsysorg/sglang:v0.5.18", null],
  });
});

test("each task's variable pins its image; the older SVC_RUNTIME_IMAGE_* names still work, the new ones win", () => {
  expect(pick({ SVC_TEXT_GENERATION_IMAGE: "svc-text-generation:0123abcd", SVC_SPEECH_RECOGNITION_IMAGE: "reg.example:5000/ears@sha256:" + "a".repeat(64) })).toMatchObject({
    "text-generation/svc": ["svc-text-generation:0123abcd", "SVC_TEXT_GENERATION_IMAGE"],
    "speech-recognition/svc": ["reg.example:5000/ears@sha256:" + "a".repeat(64), "SVC_SPEECH_RECOGNITION_IMAGE"],
  });
  expect(pick({ SVC_RUNTIME_IMAGE_TEXT_GENERATION: "old:1" })["text-generation/svc"]).toEqual(["old:1", "SVC_RUNTIME_IMAGE_TEXT_GENERATION"]);
  expect(pick({ SVC_RUNTIME_IMAGE_TEXT_GENERATION: "old:1", SVC_TEXT_GENERATION_IMAGE: "new:2" })["text-generation/svc"]).toEqual(["new:2", "SVC_TEXT_GENERATION_IMAGE"]);
});

test("SVC_TEXT_GENERATION_IMAGE naming vLLM keeps its former meaning (vLLM's image) unless SVC_VLLM_IMAGE is set", () => {
  expect(pick({ SVC_TEXT_GENERATION_IMAGE: "vllm/vllm-openai:v0.6.1" })).toMatchObject({
    "text-generation/svc": ["svc-text-generation:latest", null],
    "text-generation/vllm": ["vllm/vllm-openai:v0.6.1", "SVC_TEXT_GENERATION_IMAGE"],
  });
  expect(pick({ SVC_TEXT_GENERATION_IMAGE: "vllm/vllm-openai:v0.6.1", SVC_VLLM_IMAGE: "vllm/vllm-openai:v0.7" })["text-generation/vllm"]).toEqual(["vllm/vllm-openai:v0.7", "SVC_VLLM_IMAGE"]);
});

test("a value that is no image reference stops start-up, naming the variable", () => {
  for (const bad of ["a b", "$(id)", "x;y", "-x"]) {
    expect(() => loadImageChoices({ SVC_SPEECH_RECOGNITION_IMAGE: bad })).toThrow(ConfigError);
    expect(() => loadImageChoices({ SVC_SPEECH_RECOGNITION_IMAGE: bad })).toThrow(`SVC_SPEECH_RECOGNITION_IMAGE=${JSON.stringify(bad)} is not an image reference`);
  }
});
