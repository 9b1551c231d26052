import { SvcClient } from "@svc/client";
import { isLive, isLiveBatch, type BatchRecord, type ServiceRecord } from "@svc/contracts";
import { INTERNAL_SECRET_HEADER } from "@svc/contracts/topology";

const ASK_TIMEOUT_MS = 10_000;
/** How long a stopped service or batch job may take to be recorded STOPPED before svc exits anyway. */
const SETTLE_MS = 10_000;
/** The most services one answer lists (live ones come first). */
const MAX_LIVE = 1000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const label = (s: ServiceRecord | BatchRecord) => `${s.id.slice(0, 13)} (${s.name}, ${s.status})`;

/** What runs on engines: the live services and the live batch jobs, each with how to list, stop and tell them. */
interface Running {
  word: "service" | "batch job";
  live: Array<ServiceRecord | BatchRecord>;
  /** The live ones among those it lists now. */
  list: () => Promise<Array<ServiceRecord | BatchRecord>>;
  stop: (id: string) => Promise<unknown>;
  /** How a user sees and stops one after svc exits. */
  hint: string;
}

/**
 * What happens to the inference services and batch jobs when `svc start` exits. By default they keep
 * running (the next `svc start` adopts them again) and this says so, naming them; with
 * `stopServicesOnExit` each is stopped first (a stopped batch job resumes with `svc batch resume`).
 * Asks orchestrator-svc directly, before it stops.
 */
export async function servicesOnExit(orchestratorUrl: string, internalSecret: string, stopServicesOnExit: boolean, say: (line: string) => void): Promise<void> {
  const client = new SvcClient({
    baseUrl: orchestratorUrl,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set(INTERNAL_SECRET_HEADER, internalSecret);
      return fetch(input, { ...init, headers, signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
    }) as typeof fetch,
  });
  const kinds: Running[] = [
    {
      word: "service",
      live: [],
      // `svc ls` lists recently ended services too, after the live ones.
      list: async () => (await client.services.list({ limit: MAX_LIVE })).filter((service) => isLive(service.status)),
      stop: (id) => client.services.stop(id),
      hint: "svc ls shows them after the next svc start; svc stop ID stops one",
    },
    {
      word: "batch job",
      live: [],
      list: async () => (await client.batches.list()).filter((batch) => isLiveBatch(batch.status)),
      stop: (id) => client.batches.stop(id),
      hint: "svc batch ls shows them after the next svc start; svc batch stop ID stops one",
    },
  ];
  for (const kind of kinds) {
    try {
      kind.live = await kind.list();
    } catch (error) {
      say(`Could not ask orchestrator-svc which ${kind.word}s are running (${(error as Error).message}); any that run keep running.`);
    }
  }
  const running = kinds.filter((kind) => kind.live.length > 0);
  if (running.length === 0) return;
  if (!stopServicesOnExit) {
    for (const { word, live, hint } of running) {
      say(`${plural(live.length, word)} keep${live.length === 1 ? "s" : ""} running: ${live.map(label).join(", ")}. ${hint} (svc start --stop-services-on-exit stops them when svc exits).`);
    }
    return;
  }
  const counts = (count: (kind: Running) => number) =>
    kinds
      .filter((kind) => count(kind) > 0)
      .map((kind) => plural(count(kind), kind.word))
      .join(" and ");
  say(`Stopping ${counts((kind) => kind.live.length)} (--stop-services-on-exit)…`);
  const failed: string[] = [];
  const stopping = new Map<Running, string[]>(kinds.map((kind) => [kind, []]));
  await Promise.all(
    running.flatMap((kind) =>
      kind.live.map((thing) =>
        kind.stop(thing.id).then(
          () => stopping.get(kind)!.push(thing.id),
          (error) => failed.push(`${label(thing)}: ${(error as Error).message}`),
        ),
      ),
    ),
  );
  // Wait (a little) for the records to say STOPPED, so the next start shows them as such.
  const deadline = Date.now() + SETTLE_MS;
  for (const kind of running) {
    const ids = stopping.get(kind)!;
    while (ids.length > 0 && Date.now() < deadline) {
      const still = await kind.list().catch(() => []);
      if (!still.some((thing) => ids.includes(thing.id))) break;
      await Bun.sleep(200);
    }
  }
  const stopped = counts((kind) => stopping.get(kind)!.length);
  say(`Stopped ${stopped || "nothing"}.${failed.length > 0 ? ` Could not stop ${failed.join("; ")}.` : ""}`);
}
