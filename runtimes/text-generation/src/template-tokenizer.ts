import type { Token, Tokenizer } from "node-llama-cpp";

/** More pieces than any chat template has: past this the remembered ones are dropped and gathered again. */
const MAX_PIECES = 256;

/**
 * The model's tokenizer, remembering the tokens of a chat template's own pieces: the special-token
 * texts (`<|im_start|>user\n`) and special tokens (BOS) it puts around every message, which are the
 * same on every request (each cost a tokenization with llama.cpp's leading-space workaround, several
 * native calls). Message text, which a template never marks as special, is tokenized every time.
 */
export function templateTokenizer(tokenizer: Tokenizer): Tokenizer {
  const pieces = new Map<string, readonly Token[]>();
  const tokenize = (text: string, specialTokens?: boolean | "builtin", options?: "trimLeadingSpace"): Token[] => {
    if (specialTokens !== true && specialTokens !== "builtin") return tokenizer(text, specialTokens, options);
    const key = `${specialTokens}:${options ?? ""}:${text}`;
    let tokens = pieces.get(key);
    if (!tokens) {
      if (pieces.size >= MAX_PIECES) pieces.clear();
      tokens = specialTokens === "builtin" ? tokenizer(text as Parameters<typeof tokenizer>[0] as never, "builtin") : tokenizer(text, true, options);
      pieces.set(key, tokens);
    }
    return tokens.slice();
  };
  return Object.assign(tokenize, {
    detokenize: tokenizer.detokenize,
    isSpecialToken: (token: Token) => tokenizer.isSpecialToken(token),
    isEogToken: (token: Token) => tokenizer.isEogToken(token),
  }) as Tokenizer;
}
