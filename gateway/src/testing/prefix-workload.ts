/**
 * Test support: a workload of long shared prompt prefixes (system prompts of ~2,000 tokens of the
 * tiny model) with short, different user turns, streamed through /v1. Each request's replica (the
 * x-svc-service header) and time to first token (the first chunk with text) are given back.
 */
import { RIG_MODEL } from "./replica-rig";

export interface PrefixRequest {
  /** Which of the prefixes it shares. */
  prefix: number;
  /** The service that answered it (its id). */
  service: string;
  /** From sending the request to the first chunk carrying generated text. */
  firstTokenMs: number;
}

/** Over 2,048 characters (the part routing reads), about 2,000 tokens of the tiny model. */
const WORDS = 520;

/** `count` distinct system prompts of WORDS words each, different from the first word on; `salt` makes another set. */
export function longPrefixes(count: number, salt = "a"): string[] {
  const seed = [...salt].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 100_003, 7);
  return Array.from({ length: count }, (_, p) => {
    const words = Array.from({ length: WORDS }, (_, i) => `w${(i * 7919 + p * 104_729 + seed * 31) % 997}`);
    return `You are assistant ${salt}${p}. Background: ${words.join(" ")}`;
  });
}

async function firstToken(url: string, system: string, question: string): Promise<{ service: string; firstTokenMs: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: RIG_MODEL, stream: true, max_tokens: 4, temperature: 0, messages: [{ role: "system", content: system }, { role: "user", content: question }] }),
  });
  if (response.status !== 200 || !response.body) throw new Error(`/v1 answered ${response.status}: ${await response.text()}`);
  const service = response.headers.get("x-svc-service") ?? "";
  const decoder = new TextDecoder();
  let text = "";
  let firstTokenMs = Number.NaN;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (Number.isNaN(firstTokenMs) && /"content":"[^"]/.test(text)) firstTokenMs = performance.now() - started;
  }
  if (!text.includes("data: [DONE]") || text.includes('"error"')) throw new Error(`the stream did not end well: ${text.slice(-300)}`);
  if (Number.isNaN(firstTokenMs)) throw new Error("the stream carried no text");
  return { service, firstTokenMs };
}

/**
 * `perPrefix` requests for each prefix, one at a time, the prefixes taking turns (as a batch of
 * prompts behind a few system prompts): with one request in flight, the load bound never moves a
 * prefix off its replica, and a replica serving two prefixes sees them alternate.
 */
export async function runPrefixWorkload(url: string, prefixes: string[], perPrefix: number): Promise<PrefixRequest[]> {
  const sent: PrefixRequest[] = [];
  for (let i = 0; i < perPrefix; i++) {
    for (const [prefix, system] of prefixes.entries()) sent.push({ prefix, ...(await firstToken(url, system, `Question ${i}: what is item ${i * 13 + prefix}?`)) });
  }
  return sent;
}
