import { availableParallelism } from "node:os";
import { statSync } from "node:fs";
import {
  getLlama,
  resolveChatWrapper,
  GeneralChatWrapper,
  LlamaLogLevel,
  type ChatHistoryItem,
  type ChatWrapper,
  type LlamaContextSequence,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import { StopTextFilter } from "./stop-text-filter";

export interface EngineOptions {
  modelFile: string;
  contextSize?: number;
  threads?: number;
}

export interface GenerationOptions {
  maxTokens: number;
  temperature: number;
  topP: number;
  seed?: number;
  stop: string[];
  signal?: AbortSignal;
}

export type FinishReason = "stop" | "length";

export interface GenerationResult {
  text: string;
  completionTokens: number;
  finishReason: FinishReason;
  /** The stop string that ended the generation, if one did. */
  stopReason: string | null;
}

export interface ChatTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

const DEFAULT_CONTEXT = 4096;
const SMALL_MODEL_BYTES = 256 * 1024 * 1024;

/** On few cores tiny models run far faster on one thread (less synchronisation than work). */
function defaultThreads(modelFile: string): number {
  return statSync(modelFile).size < SMALL_MODEL_BYTES ? 1 : Math.max(1, availableParallelism());
}

/** llama.cpp on CPU through node-llama-cpp's prebuilt binaries: one model, one sequence. */
export class LlamaEngine {
  private constructor(
    private readonly model: LlamaModel,
    private readonly sequence: LlamaContextSequence,
    private readonly chatWrapper: ChatWrapper,
    readonly contextSize: number,
  ) {}

  static async load(options: EngineOptions): Promise<LlamaEngine> {
    const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.warn });
    const model = await llama.loadModel({ modelPath: options.modelFile, gpuLayers: 0 });
    const contextSize = Math.min(model.trainContextSize, options.contextSize ?? DEFAULT_CONTEXT);
    const context = await model.createContext({
      contextSize,
      sequences: 1,
      threads: options.threads ?? defaultThreads(options.modelFile),
    });
    // resolveChatWrapper reads tokenizer.chat_template from the GGUF metadata.
    const chatWrapper = resolveChatWrapper(model) ?? new GeneralChatWrapper();
    return new LlamaEngine(model, context.getSequence(), chatWrapper, contextSize);
  }

  get chatTemplate(): string {
    return this.chatWrapper.wrapperName;
  }

  tokenizeChat(turns: ChatTurn[]): Token[] {
    const chatHistory: ChatHistoryItem[] = turns.map((turn) =>
      turn.role === "assistant" ? { type: "model", response: [turn.content] } : { type: turn.role, text: turn.content },
    );
    chatHistory.push({ type: "model", response: [] });
    const { contextText } = this.chatWrapper.generateContextState({ chatHistory });
    return contextText.tokenize(this.model.tokenizer);
  }

  tokenizePrompt(prompt: string): Token[] {
    const tokens = this.model.tokenize(prompt, false);
    const bos = this.model.tokens.bos;
    return bos !== null && this.model.tokens.shouldPrependBosToken ? [bos, ...tokens] : tokens;
  }

  /** Yields text pieces as they are generated; returns the totals. Call one at a time. */
  async *generate(tokens: Token[], options: GenerationOptions): AsyncGenerator<string, GenerationResult> {
    await this.sequence.clearHistory();
    const filter = new StopTextFilter(options.stop);
    const generated: Token[] = [];
    let text = "";
    let stopReason: string | null = null;
    let hitLimit = false;

    const evaluation = this.sequence.evaluate(tokens, {
      temperature: options.temperature,
      topP: options.topP,
      seed: options.seed,
    });
    for await (const token of evaluation) {
      generated.push(token);
      const { piece, stoppedBy } = filter.next(this.model.detokenize(generated));
      if (piece) {
        text += piece;
        yield piece;
      }
      if (stoppedBy !== undefined) {
        stopReason = stoppedBy;
        break;
      }
      if (generated.length >= options.maxTokens) {
        hitLimit = true;
        break;
      }
      if (options.signal?.aborted) break;
    }
    if (stopReason === null) {
      const rest = filter.flush(this.model.detokenize(generated));
      if (rest) {
        text += rest;
        yield rest;
      }
    }
    return { text, completionTokens: generated.length, finishReason: hitLimit ? "length" : "stop", stopReason };
  }
}
