/**
 * A small SentencePiece-style ("llama" tokenizer) vocabulary: control tokens, the 256 byte-fallback
 * tokens (so any text tokenizes), single characters, and a few words with every prefix present so
 * llama.cpp's pairwise SPM merges can reach them.
 */
export const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;

export interface SpmVocab {
  tokens: string[];
  scores: number[];
  types: number[];
  ids: { unk: number; bos: number; eos: number; imStart: number; imEnd: number };
}

const SPACE = "\u2581"; // SentencePiece's visible space
const CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?'\"-:;()";
const WORDS = [
  "the", "and", "hello", "world", "model", "tiny", "service", "token", "text", "speech",
  "is", "a", "of", "to", "in", "it", "you", "that", "what", "how", "are", "say", "one", "two", "three",
];

export function buildSpmVocab(): SpmVocab {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const add = (piece: string, type: number, score = 0) => {
    tokens.push(piece);
    types.push(type);
    scores.push(score);
    return tokens.length - 1;
  };

  const unk = add("<unk>", TOKEN_TYPE.unknown);
  const bos = add("<s>", TOKEN_TYPE.control);
  const eos = add("</s>", TOKEN_TYPE.control);
  const imStart = add("<|im_start|>", TOKEN_TYPE.control);
  const imEnd = add("<|im_end|>", TOKEN_TYPE.control);
  for (let byte = 0; byte < 256; byte++) add(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`, TOKEN_TYPE.byte);

  const seen = new Set<string>();
  const addPiece = (piece: string) => {
    if (seen.has(piece)) return;
    seen.add(piece);
    // SPM merges the highest-scoring pair first; longer pieces score higher.
    add(piece, TOKEN_TYPE.normal, -1000 + piece.length * 10 - seen.size * 0.001);
  };
  addPiece(SPACE);
  for (const char of CHARACTERS) addPiece(char);
  for (const char of CHARACTERS) addPiece(SPACE + char);
  for (const word of WORDS) {
    const spaced = SPACE + word;
    for (let end = 2; end <= spaced.length; end++) addPiece(spaced.slice(0, end));
  }

  return { tokens, scores, types, ids: { unk, bos, eos, imStart, imEnd } };
}
