import type { LlamaEmbeddingContext, LlamaModel, Token } from "node-llama-cpp";
import type { EngineSettings } from "./engine-settings";

export interface Embedding {
  /** Unit length (L2-normalised), as OpenAI's embeddings are. */
  vector: number[];
  /** Tokens evaluated, the ones the model adds (e.g. BOS) included. */
  tokens: number;
}

/**
 * Embeddings from the same GGUF: the model's own pooling when its metadata names one, else the
 * hidden state of the last token (llama.cpp's rule for decoder-only models).
 */
export class EmbeddingEngine {
  private constructor(
    private readonly model: LlamaModel,
    private readonly context: LlamaEmbeddingContext,
    readonly contextSize: number,
  ) {}

  static async create(model: LlamaModel, settings: EngineSettings, contextSize: number): Promise<EmbeddingEngine> {
    const context = await model.createEmbeddingContext({ contextSize, threads: settings.threads, batchSize: settings.batchSize });
    return new EmbeddingEngine(model, context, contextSize);
  }

  get dimensions(): number {
    return this.model.embeddingVectorSize;
  }

  /** How many token ids the model knows (valid ids are below it). */
  get vocabularySize(): number {
    return this.model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
  }

  /** Tokens an input takes once the model's own start and end tokens are added. */
  inputLength(input: string | Token[]): number {
    return this.context.calculateInputLength(typeof input === "string" ? input : [...input]);
  }

  async embed(input: string | Token[]): Promise<Embedding> {
    const tokens = this.inputLength(input);
    const { vector } = await this.context.getEmbeddingFor(typeof input === "string" ? input : [...input]);
    const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
    return { vector: norm > 0 ? vector.map((value) => value / norm) : [...vector], tokens };
  }
}
