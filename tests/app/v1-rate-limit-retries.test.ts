/**
 * The official `openai` npm client, with its default retries, on a key limited to 2 requests a
 * minute (`svc key create --rpm 2`) completes 5 requests by itself: each 429 tells it when the next
 * request fits (retry-after-ms, Retry-After), it waits that long and tries again. Mostly waiting
 * (about 90 s), so it runs among the runner's long-waiting files.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { runSvc, startFakeOpenAi, startSvc, type FakeOpenAi, type RunningSvc } from "@svc/testing";

const TOKEN = "v1-rate-limit-retries-token-0123456789";
const MODEL = "lab/chat-model";
let app: RunningSvc;
let upstream: FakeOpenAi;

beforeAll(async () => {
  upstream = startFakeOpenAi(MODEL);
  app = await startSvc({ env: { SVC_DEBUG: "false", SVC_AUTH_TOKEN: TOKEN } });
  const env = { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), SVC_AUTH_TOKEN: TOKEN };
  expect((await runSvc(["endpoint", "add", "lab", `${upstream.url}/v1`], env)).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await app?.cleanup();
  upstream?.stop();
});

test("5 chats on a key of 2 requests a minute all complete, the client waiting out each 429 itself", async () => {
  const created = await runSvc(["key", "create", "--name", "script", "--rpm", "2"], { SVC_HOME_DIR: app.home, SVC_HOST: "127.0.0.1", SVC_PORT: String(app.port), SVC_AUTH_TOKEN: TOKEN });
  expect(created.code).toBe(0);
  const key = created.stdout.split("\n")[0].trim();
  const statuses: number[] = [];
  const counting: typeof fetch = Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
    { preconnect: fetch.preconnect },
  );
  // The client's defaults: 2 retries, waiting what retry-after-ms (or Retry-After) says when that is under a minute.
  const openai = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: key, fetch: counting });
  for (let i = 0; i < 5; i++) {
    const answer = await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: `request ${i}` }] });
    expect(answer.choices[0].message.content).toBe("hello");
  }
  expect(statuses.filter((status) => status === 200)).toHaveLength(5);
  // The third, fourth and fifth each waited out a 429 first.
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(3);
  expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
}, 240_000);
