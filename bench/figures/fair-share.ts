/**
 * Figure 11: fair share of a saturated model (issue 41). One tiny-model service taking 2 requests at
 * once (`--parallel 2`) behind `/v1`, debug off, two keys from `svc key create`: key F keeps 32
 * streamed chats in flight (each one over is replaced at once; bench/lib/stream-keeper.ts, a process
 * of its own), key I sends one streamed chat a second from the bench's process. Greedy chats
 * (temperature 0): each of F's is the same 64 tokens, I's 16. Measured: I's time to first token (its
 * text, not the role chunk before it) on the idle service, under F's load with fair share on, and
 * under the same load with it off (`SVC_FAIR_SHARE=false`, the app restarted on the same home: the
 * service keeps running and is adopted), the loaded sides alternating over ROUNDS rounds of 10 s, and the completion tokens a second served in both loaded
 * phases (from each answer's usage). Goals: I's p50 under load ≤ max(2 × idle p50, idle p50 + one of
 * F's generations) (how long one of F's chats holds a slot with fair share on: 2 slots ÷ F's chats a
 * second), ≤ ¼ of fair share off; throughput ≥ 0.95 of fair share off; every request answered or refused with 429
 * and Retry-After.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { SvcClient } from "@svc/client";
import { eventually, REPO_ROOT, runSvc, startAppWithTinyModels, startSvc, TEXT_MODEL, type RunningSvc } from "@svc/testing";
import { median, ms, type Row } from "../lib/measure";
import type { KeeperPlan, KeeperResult } from "../lib/stream-keeper";
import { streamedChat, type StreamedChat } from "../lib/streamed-chat";

/** Seconds each phase runs (I's chats: one a second). FAIR_SHARE_SECONDS=N for longer. */
const PHASE_SECONDS = Number(process.env.FAIR_SHARE_SECONDS ?? 10);
/** Loaded phases of each side, alternating (fair share on, off, on, …): the machine's other work drifts over minutes. FAIR_SHARE_ROUNDS=N for more. */
const ROUNDS = Number(process.env.FAIR_SHARE_ROUNDS ?? 3);
const F_IN_FLIGHT = 32;
const F_TOKENS = 64;
const I_TOKENS = 16;
/** F's load before a loaded phase is measured: the queue fills, the runtime warms. */
const WARM_UP_MS = 3000;
const KEEPER = join(REPO_ROOT, "bench", "lib", "stream-keeper.ts");

interface Phase {
  i: StreamedChat[];
  /** F's load (none when idle). */
  f: KeeperResult;
  seconds: number;
}

const NO_LOAD: KeeperResult = { chats: 0, tokens: 0, answered: 0, refused: 0, lost: [] };
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? Number.NaN;

/** Starts F's load in its own process; resolves once it runs, with its result to come (wrapped: an awaited promise of a promise would wait for both). */
async function startLoad(plan: KeeperPlan): Promise<{ result: Promise<KeeperResult> }> {
  const keeper = Bun.spawn([process.execPath, KEEPER], { env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "1024" }, stdin: new Blob([JSON.stringify(plan)]), stdout: "pipe", stderr: "pipe" });
  const lines = (async function* () {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of keeper.stdout as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
        yield pending.slice(0, newline);
        pending = pending.slice(newline + 1);
      }
    }
  })();
  const first = await lines.next();
  if (first.done) throw new Error(`the load client did not start: ${await new Response(keeper.stderr).text()}`);
  const result = (async () => {
    const last = await lines.next();
    const code = await keeper.exited;
    if (last.done || code !== 0) throw new Error(`the load client failed: ${await new Response(keeper.stderr).text()}`);
    return JSON.parse(last.value) as KeeperResult;
  })();
  return { result };
}

/** `seconds` of I's chats, one a second, with F keeping 32 in flight meanwhile when `load`. */
async function phase(url: string, keys: { F: string; I: string }, load: boolean, seconds: number): Promise<Phase> {
  const f = load ? (await startLoad({ url, key: keys.F, model: TEXT_MODEL, inFlight: F_IN_FLIGHT, maxTokens: F_TOKENS, warmUpMs: WARM_UP_MS, seconds })).result : Promise.resolve(NO_LOAD);
  if (load) await Bun.sleep(WARM_UP_MS);
  const started = performance.now();
  const mine: Array<Promise<StreamedChat>> = [];
  for (let n = 0; n < seconds; n++) {
    mine.push(streamedChat(url, keys.I, TEXT_MODEL, I_TOKENS));
    await Bun.sleep(Math.max(0, started + (n + 1) * 1000 - performance.now()));
  }
  return { i: await Promise.all(mine), f: await f, seconds: (performance.now() - started) / 1000 };
}

const firstTokens = (p: Phase) => p.i.filter((chat) => chat.firstTokenAt !== undefined).map((chat) => chat.firstTokenAt! - chat.sentAt);
const tokensPerSecond = (p: Phase) => (p.i.reduce((sum, chat) => sum + chat.tokens, 0) + p.f.tokens) / p.seconds;
const refusedIn = (p: Phase) => p.i.filter((chat) => chat.status === 429 && !chat.lost).length + p.f.refused;
const lostIn = (p: Phase) => [...p.i.flatMap((chat) => (chat.lost ? [chat.lost] : [])), ...p.f.lost];
/** How long one of F's chats holds a slot under the load: the service's 2 slots over F's chats a second (a client cannot time it from the stream, which a loaded runtime sends in a few writes). */
const slotTime = (p: Phase) => (2 * p.seconds * 1000) / p.f.chats;
const answeredIn = (p: Phase) => p.i.filter((chat) => chat.status === 200 && !chat.lost).length + p.f.answered;

function describe(name: string, p: Phase) {
  const ttft = firstTokens(p);
  const lost = lostIn(p);
  process.stderr.write(
    `  ${name}: I's first token p50 ${ms(median(ttft))}, p99 ${ms(percentile(ttft, 99))} (${ttft.length} chats); ${p.f.chats ? `F ${p.f.chats} chats (${ms(slotTime(p))} a slot each); ` : ""}${tokensPerSecond(p).toFixed(0)} tokens/s; ${refusedIn(p)} refused (429), ${lost.length} lost${lost[0] ? ` (${lost[0]})` : ""}\n`,
  );
}

/** Several phases of one side as one. */
const merged = (phases: Phase[]): Phase => ({
  i: phases.flatMap((p) => p.i),
  f: phases.reduce((sum, p) => ({ chats: sum.chats + p.f.chats, tokens: sum.tokens + p.f.tokens, answered: sum.answered + p.f.answered, refused: sum.refused + p.f.refused, lost: [...sum.lost, ...p.f.lost] }), NO_LOAD),
  seconds: phases.reduce((sum, p) => sum + p.seconds, 0),
});

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
  /** Whether the app runs with fair share off now. */
  let off = false;
  try {
    serviceId = await tiny.serving(["text-generation", TEXT_MODEL, "--parallel", "2", "--name", "bench-fair"]);
    const keys = { F: "", I: "" };
    for (const who of ["F", "I"] as const) {
      const created = await runSvc(["key", "create", "--name", `bench-${who.toLowerCase()}`, "--json"], tiny.env);
      if (created.code !== 0) throw new Error(`svc key create: ${created.stderr}`);
      keys[who] = (JSON.parse(created.stdout) as { key: string }).key;
    }
    // Warm: the runtime's first requests, the gateway's first look-ups.
    for (let n = 0; n < 5; n++) await streamedChat(app.url, keys.I, TEXT_MODEL, I_TOKENS);

    const idle = await phase(app.url, keys, false, ROUNDS * PHASE_SECONDS);
    describe("idle", idle);
    const sides: Record<"on" | "off", Phase[]> = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) {
        // The switch is read at start: the app starts again on the same home, the service keeps running and is adopted.
        if ((side === "off") !== off) {
          await app.stop();
          app = await restarted(tiny.app.home, { ...runtimeEnv, ...base, SVC_FAIR_SHARE: side === "on" ? "true" : "false" }, serviceId, token);
          off = side === "off";
          for (let n = 0; n < 5; n++) await streamedChat(app.url, keys.I, TEXT_MODEL, I_TOKENS);
        }
        const measured = await phase(app.url, keys, true, PHASE_SECONDS);
        describe(`fair share ${side}, round ${round + 1}`, measured);
        sides[side].push(measured);
      }
    }
    const [on, offSide] = [merged(sides.on), merged(sides.off)];

    const [idle50, idle99] = [median(firstTokens(idle)), percentile(firstTokens(idle), 99)];
    const [on50, on99] = [median(firstTokens(on)), percentile(firstTokens(on), 99)];
    const [off50, off99] = [median(firstTokens(offSide)), percentile(firstTokens(offSide), 99)];
    const generation = slotTime(on);
    const bound = Math.max(2 * idle50, idle50 + generation);
    const [onRate, offRate] = [tokensPerSecond(on), tokensPerSecond(offSide)];
    const phases = [idle, on, offSide];
    const refused = phases.reduce((sum, p) => sum + refusedIn(p), 0);
    const answered = phases.reduce((sum, p) => sum + answeredIn(p), 0);
    const lost = phases.flatMap(lostIn);
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
        svc: `${answered} answered, ${refused} refused (429 + Retry-After)`,
        comparison: `${lost.length} lost${lost[0] ? ` (${lost[0].slice(0, 60)})` : ""}`,
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
