/**
 * Figure 11: fair share of a saturated model (issue 41). One tiny-model service taking 2 requests at
 * once (`--parallel 2`) behind `/v1`, debug off, two keys from `svc key create`: key F keeps 32
 * streamed chats in flight (each one over is replaced at once), key I sends one streamed chat a
 * second. I's time to first token (to the first token's text, not the role chunk before it) on the
 * idle service, under F's load with fair share on, and under the same load with it off
 * (`SVC_FAIR_SHARE=false`, the app restarted on the same home: the service keeps running and is
 * adopted), plus the completion tokens a second served in both loaded phases (from each answer's
 * usage). Greedy (temperature 0): every chat of F is the same 64 tokens. Goals: I's p50 under load
 * ≤ max(2 × idle p50, idle p50 + one of F's generations) (F's median time from its first token to its
 * end, with fair share on), ≤ ¼ of fair share off;
 * throughput ≥ 0.95 of fair share off; every request answered or refused with 429 and Retry-After.
 */
import { randomBytes } from "node:crypto";
import { SvcClient } from "@svc/client";
import { eventually, runSvc, startAppWithTinyModels, startSvc, TEXT_MODEL, type RunningSvc } from "@svc/testing";
import { median, ms, type Row } from "../lib/measure";

/** Seconds each phase runs (I's chats: one a second). FAIR_SHARE_SECONDS=N for longer. */
const PHASE_SECONDS = Number(process.env.FAIR_SHARE_SECONDS ?? 30);
const F_IN_FLIGHT = 32;
/** F's load before each loaded phase is measured: the queue fills, the runtime warms. */
const WARM_UP_MS = 3000;

interface Sent {
  key: "F" | "I";
  sentAt: number;
  /** When its first token's text came. */
  firstTokenAt?: number;
  endedAt?: number;
  status?: number;
  retryAfter?: string | null;
  completionTokens: number;
  /** Neither a whole stream nor a 429 with Retry-After. */
  lost?: string;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? Number.NaN;

/** A streamed chat, read to its end: when it began, its first token, its usage, and whether it was whole. */
async function streamedChat(url: string, key: string, who: "F" | "I", maxTokens: number): Promise<Sent> {
  const sent: Sent = { key: who, sentAt: performance.now(), completionTokens: 0 };
  try {
    const answer = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: TEXT_MODEL, stream: true, stream_options: { include_usage: true }, max_tokens: maxTokens, temperature: 0, messages: [{ role: "user", content: "Tell me a story." }] }),
    });
    sent.status = answer.status;
    sent.retryAfter = answer.headers.get("retry-after");
    if (answer.status === 429) {
      await answer.text();
      if (!sent.retryAfter) sent.lost = "429 without Retry-After";
      return sent;
    }
    if (answer.status !== 200 || !answer.body) {
      sent.lost = `status ${answer.status}: ${(await answer.text()).slice(0, 120)}`;
      return sent;
    }
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (sent.firstTokenAt === undefined && /"content":"[^"]/.test(text)) sent.firstTokenAt = performance.now();
    }
    sent.endedAt = performance.now();
    sent.completionTokens = Number(text.match(/"completion_tokens":(\d+)/g)?.at(-1)?.split(":")[1] ?? 0);
    if (!text.trimEnd().endsWith("data: [DONE]")) sent.lost = `a stream ended without [DONE]: …${text.slice(-80)}`;
  } catch (error) {
    sent.lost = String((error as Error).message ?? error);
  }
  return sent;
}

interface Phase {
  i: Sent[];
  f: Sent[];
  seconds: number;
}

/** `seconds` of I's chats, one a second, with F keeping 32 in flight meanwhile (`load`); what each sent. */
async function phase(url: string, keys: { F: string; I: string }, load: boolean, seconds: number): Promise<Phase> {
  const f: Sent[] = [];
  let running = load;
  let measuring = false;
  const loops = load
    ? Array.from({ length: F_IN_FLIGHT }, async () => {
        while (running) {
          const sent = await streamedChat(url, keys.F, "F", 64);
          if (measuring) f.push(sent);
        }
      })
    : [];
  if (load) await Bun.sleep(WARM_UP_MS);
  measuring = true;
  const started = performance.now();
  const mine: Array<Promise<Sent>> = [];
  for (let n = 0; n < seconds; n++) {
    mine.push(streamedChat(url, keys.I, "I", 16));
    await Bun.sleep(Math.max(0, started + (n + 1) * 1000 - performance.now()));
  }
  const i = await Promise.all(mine);
  const elapsed = (performance.now() - started) / 1000;
  measuring = false;
  running = false;
  await Promise.all(loops);
  return { i, f: f.filter((sent) => sent.endedAt === undefined || sent.endedAt - started <= elapsed * 1000), seconds: elapsed };
}

const firstTokens = (p: Phase) => p.i.filter((sent) => sent.firstTokenAt !== undefined).map((sent) => sent.firstTokenAt! - sent.sentAt);
const tokensPerSecond = (p: Phase) => [...p.i, ...p.f].reduce((sum, sent) => sum + sent.completionTokens, 0) / p.seconds;

function describe(name: string, p: Phase) {
  const ttft = firstTokens(p);
  const refused = [...p.i, ...p.f].filter((sent) => sent.status === 429).length;
  const lost = [...p.i, ...p.f].filter((sent) => sent.lost);
  process.stderr.write(
    `  ${name}: I's first token p50 ${ms(median(ttft))}, p99 ${ms(percentile(ttft, 99))} (${ttft.length} chats); F ${p.f.length} chats of ${median(p.f.map((sent) => sent.completionTokens))} tokens; ${tokensPerSecond(p).toFixed(0)} tokens/s; ${refused} refused (429), ${lost.length} lost${lost[0] ? ` (${lost[0].lost})` : ""}\n`,
  );
}

/** Starts the app again on `home` with `env`; resolves once the service is HEALTHY there (adopted). */
async function restarted(home: string, env: Record<string, string>, serviceId: string, token: string): Promise<RunningSvc> {
  const app = await startSvc({ home, env });
  const client = new SvcClient({ baseUrl: app.url, token });
  await eventually(async () => (await client.services.get(serviceId)).status === "HEALTHY", 60_000, "the service adopted");
  return app;
}

export async function fairShare(): Promise<Row[]> {
  const token = randomBytes(24).toString("hex");
  const base = { SVC_DEBUG: "false", SVC_AUTH_TOKEN: token };
  const tiny = await startAppWithTinyModels({ env: base });
  let app: RunningSvc = tiny.app;
  const runtimeEnv = { SVC_RUNTIME_IMAGE_TEXT_GENERATION: tiny.images["text-generation"], SVC_RUNTIME_IMAGE_SPEECH_RECOGNITION: tiny.images["speech-recognition"] };
  let serviceId: string | undefined;
  try {
    serviceId = await tiny.serving(["text-generation", TEXT_MODEL, "--parallel", "2", "--name", "bench-fair"]);
    const keys = { F: "", I: "" };
    for (const who of ["F", "I"] as const) {
      const created = await runSvc(["key", "create", "--name", `bench-${who.toLowerCase()}`, "--json"], tiny.env);
      if (created.code !== 0) throw new Error(`svc key create: ${created.stderr}`);
      keys[who] = (JSON.parse(created.stdout) as { key: string }).key;
    }
    // Warm: the runtime's first requests, the gateway's first look-ups.
    for (let n = 0; n < 5; n++) await streamedChat(app.url, keys.I, "I", 16);

    const idle = await phase(app.url, keys, false, PHASE_SECONDS);
    describe("idle", idle);
    const on = await phase(app.url, keys, true, PHASE_SECONDS);
    describe("fair share on", on);
    await app.stop();
    app = await restarted(tiny.app.home, { ...runtimeEnv, ...base, SVC_FAIR_SHARE: "false" }, serviceId, token);
    for (let n = 0; n < 5; n++) await streamedChat(app.url, keys.I, "I", 16);
    const off = await phase(app.url, keys, true, PHASE_SECONDS);
    describe("fair share off", off);

    const [idle50, idle99] = [median(firstTokens(idle)), percentile(firstTokens(idle), 99)];
    const [on50, on99] = [median(firstTokens(on)), percentile(firstTokens(on), 99)];
    const [off50, off99] = [median(firstTokens(off)), percentile(firstTokens(off), 99)];
    // How long one of F's requests holds a slot: from its first token to its end.
    const generation = median(on.f.filter((sent) => sent.endedAt !== undefined && sent.firstTokenAt !== undefined).map((sent) => sent.endedAt! - sent.firstTokenAt!));
    const bound = Math.max(2 * idle50, idle50 + generation);
    const [onRate, offRate] = [tokensPerSecond(on), tokensPerSecond(off)];
    const all = [...idle.i, ...on.i, ...on.f, ...off.i, ...off.f];
    const refused = all.filter((sent) => sent.status === 429 && !sent.lost).length;
    const lost = all.filter((sent) => sent.lost);
    const p = (a: number, b: number) => `p50 ${ms(a)}, p99 ${ms(b)}`;
    return [
      {
        figure: `fair share: I's first token under F's ${F_IN_FLIGHT} streams (fair share on) ÷ max(2 × idle p50, idle p50 + one of F's generations)`,
        svc: `on ${p(on50, on99)}`,
        comparison: `bound ${ms(bound)} (idle ${p(idle50, idle99)}; F's generation ${ms(generation)})`,
        ratio: on50 / bound,
        goal: "≤ 1.00",
        met: on50 <= bound,
      },
      {
        figure: `fair share: I's first token under F's ${F_IN_FLIGHT} streams, on ÷ off`,
        svc: `on ${p(on50, on99)}`,
        comparison: `off ${p(off50, off99)}`,
        ratio: on50 / off50,
        goal: "≤ 0.25",
        met: on50 <= off50 / 4,
      },
      {
        figure: "fair share: completion tokens/s served under F's load, on ÷ off",
        svc: `on ${onRate.toFixed(0)} tokens/s`,
        comparison: `off ${offRate.toFixed(0)} tokens/s`,
        ratio: onRate / offRate,
        goal: "≥ 0.95",
        met: onRate >= 0.95 * offRate,
      },
      {
        figure: "fair share: every request answered, or refused with 429 and Retry-After",
        svc: `${all.length - refused - lost.length} answered, ${refused} refused (429 + Retry-After)`,
        comparison: `${lost.length} lost${lost[0] ? ` (${lost[0].lost!.slice(0, 60)})` : ""}`,
        ratio: lost.length,
        goal: "0 lost",
        met: lost.length === 0,
      },
    ];
  } finally {
    const client = new SvcClient({ baseUrl: app.url, token });
    if (serviceId) await client.services.remove(serviceId, { force: true }).catch(() => {});
    await app.cleanup();
  }
}
