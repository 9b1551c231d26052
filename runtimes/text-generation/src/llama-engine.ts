import {
  getLlama,
  resolveChatWrapper,
  GeneralChatWrapper,
  LlamaGrammarEvaluationState,
  LlamaLogLevel,
  type ChatHistoryItem,
  type ChatModelFunctions,
  type GbnfJsonSchema,
  type Llama,
  type LlamaGrammar,
  type ChatWrapper,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
  type Token,
  type Tokenizer,
} from "node-llama-cpp";
import { EmbeddingEngine } from "./embedding-engine";
import type { EngineSettings } from "./engine-settings";
import { jsonGrammarText } from "./json-grammar/grammar-text";
import type { JsonGrammarSchema } from "./json-grammar/schema";
import { keepSharedPrefix, takeClosest } from "./prefix-reuse";
import { StopTextFilter } from "./stop-text-filter";
import { templateTokenizer } from "./template-tokenizer";

export interface GenerationOptions {
  maxTokens: number;
  temperature: number;
  topP: number;
  seed?: number;
  stop: string[];
  signal?: AbortSignal;
  /** Constrains every token to this grammar; the generation ends when it is complete. */
  grammar?: LlamaGrammar;
  /** The request's `model`: a LoRA adapter's name generates with that adapter; anything else with the base model. */
  model?: string;
}

export type FinishReason = "stop" | "length";

export interface GenerationResult {
  text: string;
  completionTokens: number;
  /** Prompt tokens not evaluated again: the start the sequence's cache already held (prefix-reuse.ts). */
  cachedTokens: number;
  finishReason: FinishReason;
  /** The stop string that ended the generation, if one did. */
  stopReason: string | null;
}

export interface ChatTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A GGUF LoRA adapter served on the model under `name` (svc's `--lora NAME=PATH`). */
export interface LoraAdapter {
  name: string;
  filePath: string;
}

/**
 * llama.cpp on CPU through node-llama-cpp's prebuilt binaries: one model, `parallel` sequences of
 * `contextSize` tokens each (the caller lets at most that many generations run at once), and an
 * embedding context made on first use. Each LoRA adapter gets a context of its own on the same
 * loaded model (llama.cpp applies adapters per context): the weights are in memory once, and each
 * adapter costs its own tensors and a KV cache of `parallel` × `contextSize` tokens.
 */
export class LlamaEngine {
  /** Idle sequences, each keeping what it evaluated last (a shared prompt prefix is not evaluated again). */
  private readonly free: LlamaContextSequence[];
  /** The idle sequences of each adapter's context, by the adapter's name. */
  private readonly adapterSequences = new Map<string, LlamaContextSequence[]>();
  /** The adapters' contexts, to free one removed while the service runs. */
  private readonly adapterContexts = new Map<string, LlamaContext>();
  private embeddings?: Promise<EmbeddingEngine>;
  /** Grammars by their JSON schema, most recently used last. */
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  /** Tokenizes a chat: the template's own pieces once, the messages on every request. */
  private readonly chatTokenizer: Tokenizer;

  private constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    sequences: LlamaContextSequence[],
    private readonly chatWrapper: ChatWrapper,
    private readonly settings: EngineSettings,
    readonly contextSize: number,
  ) {
    this.free = [...sequences];
    this.chatTokenizer = templateTokenizer(model.tokenizer);
  }

  static async load(settings: EngineSettings, adapters: readonly LoraAdapter[] = []): Promise<LlamaEngine> {
    const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.warn });
    const model = await llama.loadModel({ modelPath: settings.modelFile, gpuLayers: 0, useMlock: settings.useMlock, useMmap: settings.useMmap });
    const trained = model.trainContextSize;
    const contextSize = settings.contextSize === 0 ? trained : Math.min(trained, settings.contextSize);
    const context = await createContext(model, settings, contextSize);
    const sequences = Array.from({ length: settings.parallel }, () => context.getSequence());
    // resolveChatWrapper reads tokenizer.chat_template from the GGUF metadata.
    const chatWrapper = resolveChatWrapper(model) ?? new GeneralChatWrapper();
    const engine = new LlamaEngine(llama, model, sequences, chatWrapper, settings, contextSize);
    for (const adapter of adapters) await engine.addAdapter(adapter);
    return engine;
  }

  /** The LoRA adapters served, by name. */
  get adapters(): string[] {
    return [...this.adapterSequences.keys()];
  }

  /** Serves `adapter` from now on: a context of its own on the loaded model. */
  async addAdapter(adapter: LoraAdapter): Promise<void> {
    if (this.adapterSequences.has(adapter.name)) throw new Error(`adapter ${adapter.name} is served already`);
    const context = await createContext(this.model, this.settings, this.contextSize, adapter.filePath);
    this.adapterContexts.set(adapter.name, context);
    this.adapterSequences.set(adapter.name, Array.from({ length: this.settings.parallel }, () => context.getSequence()));
  }

  /** Stops serving the adapter `name` (requests already generating with it finish first); false when it is not served. */
  async removeAdapter(name: string): Promise<boolean> {
    const context = this.adapterContexts.get(name);
    const idle = this.adapterSequences.get(name);
    if (!context || !idle) return false;
    this.adapterSequences.delete(name);
    this.adapterContexts.delete(name);
    // Generations still under way hand their sequences back to `idle` when they end.
    while (idle.length < this.settings.parallel) await new Promise((resolve) => setTimeout(resolve, 20));
    await context.dispose();
    return true;
  }

  /** What the log line and `/v1/models` tell about the running setup. */
  get description(): string {
    const { parallel, threads } = this.settings;
    return `chat template ${this.chatTemplate}, context ${this.contextSize}, parallel ${parallel}, threads ${threads}, batch ${this.settings.batchSize ?? "default"}`;
  }

  get parallel(): number {
    return this.settings.parallel;
  }

  /** The embedding context (one sequence of the same size), created by the first call. */
  embedder(): Promise<EmbeddingEngine> {
    this.embeddings ??= EmbeddingEngine.create(this.model, this.settings, this.contextSize);
    return this.embeddings;
  }

  get chatTemplate(): string {
    return this.chatWrapper.wrapperName;
  }

  tokenizeChat(turns: ChatTurn[]): Token[] {
    return this.tokenizeHistory(turns.map((turn) => (turn.role === "assistant" ? { type: "model", response: [turn.content] } : { type: turn.role, text: turn.content })));
  }

  /**
   * The prompt of a chat history in the model's template, `functions` documented in its system text
   * the template's way, then the answer's start: the template's assistant header and `answerStart`.
   */
  tokenizeHistory(history: ChatHistoryItem[], functions?: ChatModelFunctions, answerStart = ""): Token[] {
    const chatHistory = [...history, { type: "model" as const, response: answerStart ? [answerStart] : [] }];
    const { contextText } = this.chatWrapper.generateContextState({ chatHistory, availableFunctions: functions, documentFunctionParams: true });
    return contextText.tokenize(this.chatTokenizer);
  }

  /** How the chat template writes a function call's start (e.g. "||call: "), as text. */
  get functionCallPrefix(): string {
    const prefix = this.chatWrapper.settings.functions.call.prefix;
    return (typeof prefix === "string" ? prefix : prefix.toString()).trimStart();
  }

  /** The grammar of JSON values valid against a request's schema (see json-grammar/schema.ts), made once per schema. */
  jsonGrammar({ schema, leaves, rules }: Pick<JsonGrammarSchema, "schema" | "leaves" | "rules">): Promise<LlamaGrammar> {
    const key = JSON.stringify([schema, leaves, rules]);
    let grammar = this.grammars.get(key);
    if (grammar) this.grammars.delete(key);
    else {
      grammar = this.llama
        .createGrammarForJsonSchema(schema as Parameters<Llama["createGrammarForJsonSchema"]>[0])
        .then((json) => this.llama.createGrammar({ grammar: jsonGrammarText(json.grammar, { leaves, rules }) }));
    }
    this.grammars.set(key, grammar);
    if (this.grammars.size > GRAMMARS_KEPT) this.grammars.delete(this.grammars.keys().next().value!);
    grammar.catch(() => this.grammars.delete(key));
    return grammar;
  }

  tokenizePrompt(prompt: string): Token[] {
    const tokens = this.model.tokenize(prompt, false);
    const bos = this.model.tokens.bos;
    return bos !== null && this.model.tokens.shouldPrependBosToken ? [bos, ...tokens] : tokens;
  }

  /** Yields text pieces as they are generated; returns the totals. At most `parallel` at once. */
  async *generate(tokens: Token[], options: GenerationOptions): AsyncGenerator<string, GenerationResult> {
    const free = (options.model !== undefined ? this.adapterSequences.get(options.model) : undefined) ?? this.free;
    const sequence = takeClosest(free, tokens);
    if (!sequence) throw new Error(`more than ${this.settings.parallel} generations at once`);
    try {
      const rest = await keepSharedPrefix(sequence, tokens);
      const result = yield* this.generateOn(sequence, rest, options);
      return { ...result, cachedTokens: tokens.length - rest.length };
    } finally {
      free.push(sequence);
    }
  }

  private async *generateOn(sequence: LlamaContextSequence, tokens: Token[], options: GenerationOptions): AsyncGenerator<string, Omit<GenerationResult, "cachedTokens">> {
    const filter = new StopTextFilter(options.stop);
    const generated: Token[] = [];
    const decoded = new IncrementalDecoder(this.model);
    let text = "";
    let stopReason: string | null = null;
    let hitLimit = false;

    const evaluation = sequence.evaluate(tokens, {
      temperature: options.temperature,
      topP: options.topP,
      seed: options.seed ?? this.settings.seed,
      grammarEvaluationState: options.grammar ? new LlamaGrammarEvaluationState({ model: this.model, grammar: options.grammar }) : undefined,
    });
    let next = evaluation.next();
    try {
      while (true) {
        const step = await next;
        if (step.done) break;
        generated.push(step.value);
        hitLimit = generated.length >= options.maxTokens;
        const more = !hitLimit && !options.signal?.aborted;
        // From the second token on, llama.cpp starts on the next token before this one's text is
        // decoded and sent, so that work overlaps its computation; the first goes out at once.
        if (more && generated.length > 1) {
          next = evaluation.next();
          await engineStarted();
        }
        const { piece, stoppedBy } = filter.next(decoded.push(generated));
        if (piece) {
          text += piece;
          yield piece;
        }
        if (stoppedBy !== undefined) {
          stopReason = stoppedBy;
          hitLimit = false;
          break;
        }
        if (!more || options.signal?.aborted) break;
        if (generated.length === 1) next = evaluation.next();
      }
    } finally {
      // A token already under way when the generation stops is not wanted: its failure is not this
      // request's. return() waits for it, so the sequence is idle when it is handed back.
      next.catch(() => undefined);
      await evaluation.return();
    }
    if (stopReason === null) {
      const rest = filter.flush(decoded.text(generated));
      if (rest) {
        text += rest;
        yield rest;
      }
    }
    return { text, completionTokens: generated.length, finishReason: hitLimit ? "length" : "stop", stopReason };
  }
}

/** A context of `parallel` sequences on `model`, with the LoRA adapter at `lora` applied (scale 1) when given. */
function createContext(model: LlamaModel, settings: EngineSettings, contextSize: number, lora?: string): Promise<LlamaContext> {
  return model.createContext({
    contextSize,
    sequences: settings.parallel,
    threads: settings.threads,
    batchSize: settings.batchSize,
    flashAttention: settings.flashAttention,
    ...(lora ? { lora: { adapters: [{ filePath: lora, scale: 1 }] } } : {}),
  });
}

/**
 * Resolves once the promises already queued have run: node-llama-cpp hands a token to llama.cpp
 * through a chain of them, so after this the engine is computing and this thread is free.
 */
function engineStarted(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The text of a growing list of tokens, decoding only the tokens since the last whole character
 * (with a few before them as context, for the tokenizer's spacing) rather than all of them each time:
 * a 256-token answer costs 256 small decodes, not 256 ever longer ones.
 */
class IncrementalDecoder {
  private done = "";
  private doneTokens = 0;

  constructor(private readonly model: LlamaModel) {}

  /** The text of `tokens` (the previous call's plus new ones at the end). */
  push(tokens: readonly Token[]): string {
    const text = this.text(tokens);
    if (!text.endsWith("\uFFFD")) {
      this.done = text;
      this.doneTokens = tokens.length;
    }
    return text;
  }

  text(tokens: readonly Token[]): string {
    const context = tokens.slice(Math.max(0, this.doneTokens - CONTEXT_TOKENS), this.doneTokens);
    return this.done + this.model.detokenize(tokens.slice(this.doneTokens), false, context);
  }
}

const CONTEXT_TOKENS = 4;
const GRAMMARS_KEPT = 32;
