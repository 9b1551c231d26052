import { writeGguf, type GgufTensor } from "./gguf-writer";
import { randomWeights, seededRandom } from "./prng";
import { buildSpmVocab, TOKEN_TYPE, type SpmVocab } from "./spm-vocab";

/** The ChatML template, stored in the GGUF as real models store theirs. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** The tiny llama's sizes; its safetensors twin and its LoRA adapters are made for the same. */
export const TINY_LLAMA_SIZE = { embedding: 64, heads: 4, kvHeads: 2, layers: 2, feedForward: 128, context: 4096 } as const;
const SIZE = TINY_LLAMA_SIZE;

/**
 * Zeroes the output rows of byte and control tokens (other than end-of-turn) so the random model
 * mostly emits readable pieces instead of stray bytes.
 */
function outputWeights(vocab: SpmVocab, weights: Float32Array): Float32Array {
  vocab.types.forEach((type, id) => {
    const readable = type === TOKEN_TYPE.normal || id === vocab.ids.imEnd;
    if (!readable) weights.fill(0, id * SIZE.embedding, (id + 1) * SIZE.embedding);
    else for (let i = id * SIZE.embedding; i < (id + 1) * SIZE.embedding; i++) weights[i] *= 3;
  });
  return weights;
}

/** The tiny llama's tensors with their GGUF names and shapes (ggml order), random (seeded). */
export function tinyLlamaTensors(vocab: SpmVocab): GgufTensor[] {
  const random = seededRandom(0x5eed11a);
  const nVocab = vocab.tokens.length;
  const headDim = SIZE.embedding / SIZE.heads;
  const kvDim = headDim * SIZE.kvHeads;
  const ones = (n: number) => new Float32Array(n).fill(1);
  const matrix = (cols: number, rows: number) => randomWeights(random, cols * rows, 1 / Math.sqrt(cols));

  const tensors: GgufTensor[] = [
    { name: "token_embd.weight", shape: [SIZE.embedding, nVocab], data: randomWeights(random, SIZE.embedding * nVocab, 1) },
    { name: "output_norm.weight", shape: [SIZE.embedding], data: ones(SIZE.embedding) },
    { name: "output.weight", shape: [SIZE.embedding, nVocab], data: outputWeights(vocab, matrix(SIZE.embedding, nVocab)) },
  ];
  for (let layer = 0; layer < SIZE.layers; layer++) {
    const p = `blk.${layer}`;
    tensors.push(
      { name: `${p}.attn_norm.weight`, shape: [SIZE.embedding], data: ones(SIZE.embedding) },
      { name: `${p}.attn_q.weight`, shape: [SIZE.embedding, SIZE.embedding], data: matrix(SIZE.embedding, SIZE.embedding) },
      { name: `${p}.attn_k.weight`, shape: [SIZE.embedding, kvDim], data: matrix(SIZE.embedding, kvDim) },
      { name: `${p}.attn_v.weight`, shape: [SIZE.embedding, kvDim], data: matrix(SIZE.embedding, kvDim) },
      { name: `${p}.attn_output.weight`, shape: [SIZE.embedding, SIZE.embedding], data: matrix(SIZE.embedding, SIZE.embedding) },
      { name: `${p}.ffn_norm.weight`, shape: [SIZE.embedding], data: ones(SIZE.embedding) },
      { name: `${p}.ffn_gate.weight`, shape: [SIZE.embedding, SIZE.feedForward], data: matrix(SIZE.embedding, SIZE.feedForward) },
      { name: `${p}.ffn_up.weight`, shape: [SIZE.embedding, SIZE.feedForward], data: matrix(SIZE.embedding, SIZE.feedForward) },
      { name: `${p}.ffn_down.weight`, shape: [SIZE.feedForward, SIZE.embedding], data: matrix(SIZE.feedForward, SIZE.embedding) },
    );
  }
  return tensors;
}

/** Builds a tiny llama-architecture GGUF with random (seeded) weights and a working tokenizer. */
export function buildTinyLlamaGguf(): Uint8Array {
  const vocab = buildSpmVocab();
  const nVocab = vocab.tokens.length;
  const headDim = SIZE.embedding / SIZE.heads;
  return writeGguf(
    {
      "general.architecture": { type: "string", value: "llama" },
      "general.name": { type: "string", value: "svc tiny llama" },
      "general.file_type": { type: "u32", value: 0 },
      "llama.context_length": { type: "u32", value: SIZE.context },
      "llama.embedding_length": { type: "u32", value: SIZE.embedding },
      "llama.block_count": { type: "u32", value: SIZE.layers },
      "llama.feed_forward_length": { type: "u32", value: SIZE.feedForward },
      "llama.attention.head_count": { type: "u32", value: SIZE.heads },
      "llama.attention.head_count_kv": { type: "u32", value: SIZE.kvHeads },
      "llama.attention.layer_norm_rms_epsilon": { type: "f32", value: 1e-5 },
      "llama.rope.dimension_count": { type: "u32", value: headDim },
      "llama.rope.freq_base": { type: "f32", value: 10000 },
      "llama.vocab_size": { type: "u32", value: nVocab },
      "tokenizer.ggml.model": { type: "string", value: "llama" },
      "tokenizer.ggml.tokens": { type: "string[]", value: vocab.tokens },
      "tokenizer.ggml.scores": { type: "f32[]", value: vocab.scores },
      "tokenizer.ggml.token_type": { type: "i32[]", value: vocab.types },
      "tokenizer.ggml.unknown_token_id": { type: "u32", value: vocab.ids.unk },
      "tokenizer.ggml.bos_token_id": { type: "u32", value: vocab.ids.bos },
      "tokenizer.ggml.eos_token_id": { type: "u32", value: vocab.ids.imEnd },
      "tokenizer.ggml.add_bos_token": { type: "bool", value: true },
      "tokenizer.ggml.add_eos_token": { type: "bool", value: false },
      "tokenizer.chat_template": { type: "string", value: CHATML_TEMPLATE },
    },
    tinyLlamaTensors(vocab),
  );
}
