import { expect, test } from "bun:test";
import { classify, pipelineTag } from "../src/discovery/classify";

const facts = (over: Partial<Parameters<typeof classify>[0]>) => ({ files: [{ path: "x", size: 1 }], magics: {}, ...over });

test("config.json architectures decide first", () => {
  expect(classify(facts({ config: JSON.stringify({ architectures: ["Qwen2ForCausalLM"] }) }))).toMatchObject({ image: "text-generation" });
  expect(classify(facts({ config: JSON.stringify({ architectures: ["GPT2LMHeadModel"] }) }))).toMatchObject({ image: "text-generation" });
  expect(classify(facts({ config: JSON.stringify({ architectures: ["WhisperForConditionalGeneration"] }) }))).toMatchObject({ image: "speech-recognition" });
  expect(classify(facts({ config: JSON.stringify({ model_type: "whisper" }) }))).toMatchObject({ image: "speech-recognition" });
});

test("then the model card's pipeline_tag, then GGUF and ggml whisper files", () => {
  expect(classify(facts({ config: JSON.stringify({ architectures: ["Foo"] }), readme: "---\npipeline_tag: automatic-speech-recognition\n---\n" }))).toMatchObject({
    image: "speech-recognition",
  });
  expect(classify(facts({ readme: "---\ntags: [a]\npipeline_tag: 'text-generation'\n---" }))).toMatchObject({ image: "text-generation" });
  expect(classify(facts({ magics: { "m/q4.gguf": "47475546" } }))).toMatchObject({ image: "text-generation", evidence: "GGUF file m/q4.gguf" });
  expect(classify(facts({ magics: { "ggml-base.en.bin": "6c6d6767" } }))).toMatchObject({ image: "speech-recognition" });
});

test("nothing is guessed", () => {
  expect(classify(facts({ magics: { "pytorch_model.bin": "504b0304" } }))).toMatchObject({ image: null });
  expect(classify(facts({ magics: { "model.bin": "6c6d6767" } }))).toMatchObject({ image: null }); // ggml, but nothing says whisper
  expect(classify(facts({ config: "{not json" }))).toMatchObject({ image: null, reason: expect.stringContaining("not valid JSON") });
  expect(classify(facts({ readme: "---\npipeline_tag: image-classification\n---" }))).toMatchObject({ image: null, reason: expect.stringContaining("image-classification") });
  // pipeline_tag outside the front matter does not count.
  expect(pipelineTag("# Title\npipeline_tag: text-generation\n")).toBeUndefined();
  expect(pipelineTag("---\nlicense: x\n---\npipeline_tag: text-generation\n")).toBeUndefined();
});

test("a vision-language model (…ForConditionalGeneration with a vision_config, or pipeline_tag image-text-to-text) is text-generation; without a vision tower it is not guessed", () => {
  expect(classify(facts({ config: JSON.stringify({ architectures: ["Qwen2VLForConditionalGeneration"], vision_config: { depth: 32 } }) }))).toEqual({
    image: "text-generation",
    evidence: "config.json architecture Qwen2VLForConditionalGeneration with a vision_config (a vision-language model)",
  });
  expect(classify(facts({ config: JSON.stringify({ architectures: ["LlavaForConditionalGeneration"], text_config: {}, vision_config: {} }) }))).toMatchObject({ image: "text-generation" });
  expect(classify(facts({ readme: "---\npipeline_tag: image-text-to-text\n---" }))).toMatchObject({ image: "text-generation" });
  expect(classify(facts({ config: JSON.stringify({ architectures: ["T5ForConditionalGeneration"] }) }))).toMatchObject({ image: null });
});
