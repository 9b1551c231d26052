import { writeSafetensors } from "./safetensors-writer";
import { buildSpmVocab } from "./spm-vocab";
import { TINY_LLAMA_SIZE as SIZE, tinyLlamaTensors } from "./tiny-llama";

/** GGUF tensor names → the Hugging Face Llama checkpoint's, per layer where `blk.N.` prefixes them. */
const HF_NAMES: Record<string, string> = {
  "token_embd.weight": "model.embed_tokens.weight",
  "output_norm.weight": "model.norm.weight",
  "output.weight": "lm_head.weight",
  "attn_norm.weight": "input_layernorm.weight",
  "attn_q.weight": "self_attn.q_proj.weight",
  "attn_k.weight": "self_attn.k_proj.weight",
  "attn_v.weight": "self_attn.v_proj.weight",
  "attn_output.weight": "self_attn.o_proj.weight",
  "ffn_norm.weight": "post_attention_layernorm.weight",
  "ffn_gate.weight": "mlp.gate_proj.weight",
  "ffn_up.weight": "mlp.up_proj.weight",
  "ffn_down.weight": "mlp.down_proj.weight",
};

/** `blk.1.attn_q.weight` → `model.layers.1.self_attn.q_proj.weight`. */
export function hfTensorName(ggufName: string): string {
  const layer = /^blk\.(\d+)\.(.*)$/.exec(ggufName);
  const name = HF_NAMES[layer ? layer[2] : ggufName];
  if (!name) throw new Error(`no Hugging Face name for ${ggufName}`);
  return layer ? `model.layers.${layer[1]}.${name}` : name;
}

/**
 * The tiny llama as a Hugging Face checkpoint: config.json and model.safetensors (F32) holding the
 * GGUF's tensors under their Llama names (a GGUF shape reversed is the PyTorch shape of the same
 * bytes). Its weights are random like the GGUF's; it exists to be the base of the tiny PEFT adapter.
 */
export function buildTinyLlamaSafetensors(): { config: Uint8Array; weights: Uint8Array } {
  const vocab = buildSpmVocab();
  const tensors = tinyLlamaTensors(vocab).map((t) => ({ name: hfTensorName(t.name), shape: [...t.shape].reverse(), data: t.data }));
  const config = {
    architectures: ["LlamaForCausalLM"],
    model_type: "llama",
    hidden_size: SIZE.embedding,
    intermediate_size: SIZE.feedForward,
    num_hidden_layers: SIZE.layers,
    num_attention_heads: SIZE.heads,
    num_key_value_heads: SIZE.kvHeads,
    head_dim: SIZE.embedding / SIZE.heads,
    vocab_size: vocab.tokens.length,
    max_position_embeddings: SIZE.context,
    rms_norm_eps: 1e-5,
    rope_theta: 10000,
    tie_word_embeddings: false,
    torch_dtype: "float32",
    bos_token_id: vocab.ids.bos,
    eos_token_id: vocab.ids.imEnd,
  };
  return { config: new TextEncoder().encode(`${JSON.stringify(config, null, 2)}\n`), weights: writeSafetensors(tensors) };
}
