import type { LlamaContextSequence, Token } from "node-llama-cpp";

/**
 * Takes out of `idle` the sequence to evaluate `tokens` on: of those whose cache `tokens` mostly
 * continues (at least half of what it keeps is shared: a conversation's next turn, a prompt behind
 * the same long system prompt, or an empty sequence), the one sharing the most; else the least
 * recently used (idle sequences go back at the end), so a prompt that shares only the chat
 * template's first tokens with a cache does not erase the cache most recently used.
 */
export function takeClosest(idle: LlamaContextSequence[], tokens: Token[]): LlamaContextSequence | undefined {
  let best = 0;
  let bestShared = -1;
  idle.forEach((sequence, index) => {
    const shared = sequence.compareContextTokens(tokens).firstDifferentIndex;
    if (shared * 2 >= sequence.nextTokenIndex && shared > bestShared) [best, bestShared] = [index, shared];
  });
  return idle.length === 0 ? undefined : idle.splice(best, 1)[0];
}

/**
 * Keeps what the sequence evaluated before that `tokens` starts with (its KV cache), erases the
 * rest, and gives the tokens still to evaluate: at least the last one, whose evaluation gives the
 * first new token. A sequence that cannot be trimmed is emptied instead.
 */
export async function keepSharedPrefix(sequence: LlamaContextSequence, tokens: Token[]): Promise<Token[]> {
  const keep = Math.min(sequence.compareContextTokens(tokens).firstDifferentIndex, tokens.length - 1);
  try {
    if (keep <= 0) await sequence.clearHistory();
    else if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    return keep <= 0 ? tokens : tokens.slice(keep);
  } catch {
    await sequence.clearHistory();
    return tokens;
  }
}
