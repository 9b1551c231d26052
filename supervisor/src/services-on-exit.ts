import { SvcClient } from "@svc/client";
import { isLive, type ServiceRecord } from "@svc/contracts";
import { INTERNAL_SECRET_HEADER } from "@svc/contracts/topology";

const ASK_TIMEOUT_MS = 10_000;
/** How long a stopped service may take to be recorded STOPPED before svc exits anyway. */
const SETTLE_MS = 10_000;
/** The most services one answer lists (live ones come first). */
const MAX_LIVE = 1000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const label = (s: ServiceRecord) => `${s.id.slice(0, 13)} (${s.name}, ${s.status})`;

/**
 * What happens to the inference services when `svc start` exits. By default they keep running
 * (the next `svc start` adopts them again) and this says so, naming them; with
 * `stopServicesOnExit` each is stopped first. Asks orchestrator-svc directly, before it stops.
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
  let live: ServiceRecord[];
  try {
    // `svc ls` lists recently ended services too, after the live ones.
    live = (await client.services.list({ limit: MAX_LIVE })).filter((service) => isLive(service.status));
  } catch (error) {
    say(`Could not ask orchestrator-svc which services are running (${(error as Error).message}); any that run keep running.`);
    return;
  }
  if (live.length === 0) return;
  if (!stopServicesOnExit) {
    say(
      `${plural(live.length, "service")} keep${live.length === 1 ? "s" : ""} running: ${live.map(label).join(", ")}. ` +
        "svc ls shows them after the next svc start; svc stop ID stops one (svc start --stop-services-on-exit stops them when svc exits).",
    );
    return;
  }
  say(`Stopping ${plural(live.length, "service")} (--stop-services-on-exit)…`);
  const failed: string[] = [];
  const stopping: string[] = [];
  await Promise.all(
    live.map((service) =>
      client.services.stop(service.id).then(
        () => stopping.push(service.id),
        (error) => failed.push(`${label(service)}: ${(error as Error).message}`),
      ),
    ),
  );
  // Wait (a little) for the records to say STOPPED, so the next start shows them as such.
  const deadline = Date.now() + SETTLE_MS;
  while (Date.now() < deadline) {
    const still = await client.services.list({ limit: MAX_LIVE }).catch(() => [] as ServiceRecord[]);
    if (!still.some((s) => stopping.includes(s.id) && isLive(s.status))) break;
    await Bun.sleep(200);
  }
  say(`Stopped ${plural(stopping.length, "service")}.${failed.length > 0 ? ` Could not stop ${failed.join("; ")}.` : ""}`);
}
