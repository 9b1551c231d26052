import type { LlamaContextSequence, Token } from "node-llama-cpp";

/**
 * Takes out of `idle` the sequence best to evaluate `tokens` on: the most tokens kept that
 * `tokens` starts with (a conversation's next turn, a prompt behind the same long system prompt),
 * less the kept tokens it would erase. So a prompt that shares only the chat template's first
 * tokens with a sequence's cache takes an empty sequence (or another prompt's shorter cache)
 * rather than erase that cache.
 */
export function takeClosest(idle: LlamaContextSequence[], tokens: Token[]): LlamaContextSequence | undefined {
  let best = idle.length - 1;
  let bestScore = -Infinity;
  idle.forEach((sequence, index) => {
    const shared = sequence.compareContextTokens(tokens).firstDifferentIndex;
    const score = shared - (sequence.nextTokenIndex - shared);
    if (score > bestScore) [best, bestScore] = [index, score];
  });
  return best < 0 ? undefined : idle.splice(best, 1)[0];
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
