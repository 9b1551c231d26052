import { ByteWriter } from "./byte-writer";
import { melFilterbank } from "./mel-filters";
import { randomWeights, seededRandom } from "./prng";

/**
 * A tiny English-only Whisper model in whisper.cpp's ggml format. The vocabulary size must be the
 * real one (51864): whisper.cpp derives its special tokens (end of text, timestamps) from it.
 */
const SIZE = { vocab: 51864, audioContext: 1500, textContext: 448, state: 64, heads: 2, layers: 1, mels: 80 };
const GGML_MAGIC = 0x67676d6c;
const FTYPE_F32 = 0;
const BYTE_TOKENS = 256;
const END_OF_TEXT = 50256;
const WORDS = ["hello", "world", "tiny", "speech", "model", "svc", "test", "one", "two", "three"];

/**
 * The weights are random except for a few hand-set values that keep the meaningless transcripts
 * short and readable: the decoder's output is mostly a fixed bias (axis 0) plus the position
 * (axis 1), and the token embedding, which doubles as the output projection, scores words high on
 * axis 0 and end-of-text high on axis 1, so a transcript is a handful of words and then ends.
 */
const AXIS = { bias: 0, position: 1 } as const;
const DECODER_BLOCK_SCALE = 0.05;

interface Tensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

function tensors(): Tensor[] {
  const random = seededRandom(0x5eedc0de);
  const s = SIZE.state;
  const list: Tensor[] = [];
  const add = (name: string, shape: number[], fill: "random" | "ones" | "zeros" = "random", scale = 1) => {
    const count = shape.reduce((a, b) => a * b, 1);
    const data =
      fill === "random" ? randomWeights(random, count, scale / Math.sqrt(shape[0])) : new Float32Array(count).fill(fill === "ones" ? 1 : 0);
    list.push({ name, shape, data });
    return data;
  };
  const attention = (prefix: string, outScale: number) => {
    add(`${prefix}.query.weight`, [s, s]);
    add(`${prefix}.query.bias`, [s], "zeros");
    add(`${prefix}.key.weight`, [s, s]);
    add(`${prefix}.value.weight`, [s, s]);
    add(`${prefix}.value.bias`, [s], "zeros");
    add(`${prefix}.out.weight`, [s, s], "random", outScale);
    add(`${prefix}.out.bias`, [s], "zeros");
  };
  const block = (prefix: string, cross: boolean, outScale: number) => {
    add(`${prefix}.attn_ln.weight`, [s], "ones");
    add(`${prefix}.attn_ln.bias`, [s], "zeros");
    attention(`${prefix}.attn`, outScale);
    if (cross) {
      add(`${prefix}.cross_attn_ln.weight`, [s], "ones");
      add(`${prefix}.cross_attn_ln.bias`, [s], "zeros");
      attention(`${prefix}.cross_attn`, outScale);
    }
    add(`${prefix}.mlp_ln.weight`, [s], "ones");
    add(`${prefix}.mlp_ln.bias`, [s], "zeros");
    add(`${prefix}.mlp.0.weight`, [s, 4 * s]);
    add(`${prefix}.mlp.0.bias`, [4 * s], "zeros");
    add(`${prefix}.mlp.2.weight`, [4 * s, s], "random", outScale);
    add(`${prefix}.mlp.2.bias`, [s], "zeros");
  };

  add("encoder.positional_embedding", [s, SIZE.audioContext]);
  add("encoder.conv1.weight", [3, SIZE.mels, s]);
  add("encoder.conv1.bias", [1, s], "zeros");
  add("encoder.conv2.weight", [3, s, s]);
  add("encoder.conv2.bias", [1, s], "zeros");
  for (let i = 0; i < SIZE.layers; i++) block(`encoder.blocks.${i}`, false, 1);
  add("encoder.ln_post.weight", [s], "ones");
  add("encoder.ln_post.bias", [s], "zeros");

  const positions = add("decoder.positional_embedding", [s, SIZE.textContext], "random", 0.1);
  for (let p = 0; p < SIZE.textContext; p++) positions[p * s + AXIS.position] = p * 0.4;
  shapeTokenEmbedding(add("decoder.token_embedding.weight", [s, SIZE.vocab], "random", 0.3));
  for (let i = 0; i < SIZE.layers; i++) block(`decoder.blocks.${i}`, true, DECODER_BLOCK_SCALE);
  add("decoder.ln.weight", [s], "ones").fill(0.3);
  add("decoder.ln.bias", [s], "zeros")[AXIS.bias] = 1;
  return list;
}

function shapeTokenEmbedding(embedding: Float32Array): void {
  const s = SIZE.state;
  const isLetter = (id: number) => (id >= 0x61 && id <= 0x7a) || id === 0x20;
  const lastWord = BYTE_TOKENS + WORDS.length;
  for (let id = 0; id < SIZE.vocab; id++) {
    const row = id * s;
    embedding[row + AXIS.position] = 0;
    if (id >= BYTE_TOKENS && id < lastWord) embedding[row + AXIS.bias] = 6;
    else if (id < BYTE_TOKENS && isLetter(id)) embedding[row + AXIS.bias] = 3;
    else if (id === END_OF_TEXT) {
      embedding[row + AXIS.bias] = 4;
      embedding[row + AXIS.position] = 6;
    } else if (id < END_OF_TEXT) embedding[row + AXIS.bias] = -20;
  }
}

/** Byte tokens first (like GPT-2's alphabet), then a few words; whisper.cpp names the rest itself. */
function vocabulary(): Uint8Array[] {
  const words: Uint8Array[] = [];
  for (let byte = 0; byte < BYTE_TOKENS; byte++) words.push(new Uint8Array([byte]));
  const encoder = new TextEncoder();
  for (const word of WORDS) words.push(encoder.encode(` ${word}`));
  return words;
}

export function buildTinyWhisperGgml(): Uint8Array {
  const out = new ByteWriter();
  out.u32(GGML_MAGIC);
  for (const value of [
    SIZE.vocab, SIZE.audioContext, SIZE.state, SIZE.heads, SIZE.layers,
    SIZE.textContext, SIZE.state, SIZE.heads, SIZE.layers, SIZE.mels, FTYPE_F32,
  ]) out.i32(value);

  const filters = melFilterbank(16000, 400, SIZE.mels);
  out.i32(SIZE.mels).i32(filters.length / SIZE.mels).f32s(filters);

  const words = vocabulary();
  out.i32(words.length);
  for (const word of words) out.u32(word.length).bytes(word);

  const encoder = new TextEncoder();
  for (const tensor of tensors()) {
    const name = encoder.encode(tensor.name);
    out.i32(tensor.shape.length).i32(name.length).i32(FTYPE_F32);
    for (const dim of tensor.shape) out.i32(dim);
    out.bytes(name).f32s(tensor.data);
  }
  return out.toBytes();
}
