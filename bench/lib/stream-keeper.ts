/**
 * `bun bench/lib/stream-keeper.ts` with a JSON plan (KeeperPlan) on stdin: keeps `inFlight` streamed
 * chats in flight (each one over is replaced at once) for `warmUpMs` and then `seconds`, prints
 * `{"started": true}` as it begins, and at the end one JSON line (KeeperResult): the chats that ended
 * within the measured window, and how every chat ended. Its own process: reading 32 streams does not delay the timing of
 * the figure's other client.
 */
import { streamedChat, type StreamedChat } from "./streamed-chat";

export interface KeeperPlan {
  url: string;
  key: string;
  model: string;
  inFlight: number;
  maxTokens: number;
  warmUpMs: number;
  seconds: number;
}

export interface KeeperResult {
  /** Chats that ended within the window, and their completion tokens. */
  chats: number;
  tokens: number;
  /** Over the whole run, warm-up included: whole streams, 429s with Retry-After, and what went wrong with the others. */
  answered: number;
  refused: number;
  lost: string[];
}

const plan = (await Bun.stdin.json()) as KeeperPlan;
const started = performance.now();
const from = started + plan.warmUpMs;
const until = from + plan.seconds * 1000;
const ended: StreamedChat[] = [];
const all: StreamedChat[] = [];
// Written at once (console.log to a pipe may wait in a buffer): the figure times its own client from this line.
await Bun.write(Bun.stdout, `${JSON.stringify({ started: true })}\n`);
await Promise.all(
  Array.from({ length: plan.inFlight }, async () => {
    while (performance.now() < until) {
      const chat = await streamedChat(plan.url, plan.key, plan.model, plan.maxTokens);
      all.push(chat);
      const end = chat.endedAt ?? performance.now();
      if (end >= from && end <= until) ended.push(chat);
    }
  }),
);
const result: KeeperResult = {
  chats: ended.length,
  tokens: ended.reduce((sum, chat) => sum + chat.tokens, 0),
  answered: all.filter((chat) => chat.status === 200 && !chat.lost).length,
  refused: all.filter((chat) => chat.status === 429 && !chat.lost).length,
  lost: all.flatMap((chat) => (chat.lost ? [chat.lost] : [])),
};
console.log(JSON.stringify(result));
