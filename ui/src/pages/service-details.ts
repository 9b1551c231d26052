import { isLive, isTrouble, type QueueReport, type ServiceDetails } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { deploymentUrl } from "./deployments";
import { exampleRequests } from "./service-examples";
import { serviceQueueCard } from "./service-queue";
import { age, SERVICE_STYLE, SERVICES_PATH, serviceUrl, statusBadge } from "./services";

const STYLE = html`<style>
  .details-head { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; margin-bottom: 1rem; }
  .details-head h1 { margin: 0; }
  .facts.wide { grid-template-columns: max-content minmax(0, 1fr) max-content minmax(0, 1fr); }
  @media (max-width: 60rem) { .facts.wide { grid-template-columns: max-content minmax(0, 1fr); } }
  .facts dd code { overflow-wrap: anywhere; }
  .events td { vertical-align: top; }
  .events td.when { white-space: nowrap; color: var(--muted); font-size: .9rem; }
  .phases { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: .5rem 1.5rem; margin: .5rem 0 1rem; padding: 0; list-style: none; }
  .phases li { color: var(--muted); }
  .phases li strong { color: var(--fg); display: block; }
  .log-status { color: var(--muted); font-size: .85rem; }
  .details-top { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 1rem; align-items: start; }
  @media (max-width: 60rem) { .details-top { grid-template-columns: minmax(0, 1fr); } }
  .details-top #logs { max-height: 24rem; }
  .endpoints dd .hint { margin: .2rem 0 0; }
  .endpoints button { margin: 0 0 0 .3rem; padding: .1rem .5rem; font-size: .8rem; }
  details.card > summary { cursor: pointer; font-weight: 600; font-size: 1.15rem; }
</style>`;

/** Lines of output the page shows before (or without) the live stream. */
export const TAIL_LINES = 200;

/** The parts a details page needs beyond the record: where the gateway is, and the last output. */
export interface ServiceDetailsOptions {
  service: ServiceDetails;
  /** The gateway's own origin, e.g. http://localhost:8000 (from the request). */
  origin: string;
  /** Debug mode off: the examples send the svc token as X-Svc-Token. */
  tokenRequired: boolean;
  /** The last lines of output, or why there are none. */
  logs: { text: string } | { unavailable: string };
  session: boolean;
  notices?: string[];
  /** The fair-share queues from the gateway: the card of the service's model, while requests can reach it. */
  queues?: QueueReport;
}

const when = (iso: string | null) => (iso ? html`<time datetime="${iso}" title="${iso}">${iso.slice(0, 19).replace("T", " ")} UTC</time>` : "—");

function seconds(from: string | null, to: string | null): string {
  if (!from || !to) return "";
  return ` (+${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s)`;
}

/** Whether a request through svc can be answered: the service runs, or is on-demand (the first request starts it). */
const answers = (service: ServiceDetails) => isLive(service.status) || service.policies.onDemand;

/**
 * The part of the page that follows the service: status, reason, address, phases, events and the
 * actions that fit the status. htmx polls it every second; the server answers 204 while `version`
 * is unchanged, so nothing moves (nor loses focus) until the service does.
 */
export function serviceStatusPanel(service: ServiceDetails, version: string, origin: string): SafeHtml {
  const { phases } = service;
  const live = isLive(service.status);
  const proxyUrl = `${origin}/proxy/${service.id}${service.task === "text-generation" ? "/v1" : ""}`;
  return html`<section class="card" id="service-status" hx-get="${serviceUrl(service.id)}/status?v=${version}" hx-trigger="every 1s" hx-swap="outerHTML" aria-live="polite" data-live="${live ? "true" : "false"}">
    <h2>Status ${statusBadge(service.status)}</h2>
    ${service.reason ? html`<p class="${isTrouble(service.status) ? "error" : "hint"}">${service.reason}</p>` : ""}
    <ul class="phases" aria-label="Start-up phases">
      <li><strong>Submitted</strong>${when(phases.queued)}</li>
      <li><strong>Running</strong>${when(phases.starting)}${seconds(phases.queued, phases.starting)}</li>
      <li><strong>Ready</strong>${when(phases.ready)}${seconds(phases.queued, phases.ready)}</li>
    </ul>
    <h3>Endpoints</h3>
    <dl class="facts endpoints">
      ${answers(service)
        ? html`<dt>Use this URL</dt>
      <dd><code id="endpoint-url">${proxyUrl}</code> <button type="button" class="secondary-button" data-copy="#endpoint-url">Copy</button>
        <p class="hint">Through svc: the same URL wherever the service runs and after a restart, with svc's authentication. ${live ? "It answers while the service is HEALTHY." : "The service is stopped and on-demand: the first request starts it again, and is answered once it is HEALTHY."}</p></dd>`
        : html`<dt>svc URL</dt>
      <dd id="endpoint-stopped">none while the service is ${service.status}: it does not answer requests. ${service.deployment
        ? html`It is a replica: <a href="${deploymentUrl(service.deployment)}">its deployment</a> starts it again when it needs it (<code>svc scale ${service.deployment.slice(0, 13)} MIN..MAX</code> sets how many run)`
        : html`Start it again with <strong>Restart…</strong> below or <code>svc restart ${service.id.slice(0, 13)}</code>`}; its URL and the code examples come back then.</dd>`}
      <dt>Service's own URL</dt>
      <dd id="direct-url">${live
        ? service.url
          ? html`<code>${service.url}</code><p class="hint">Port ${service.port} on ${service.host ?? "this machine"}: only from this machine, and it changes when the service restarts.</p>`
          : "not known yet (the service is starting)"
        : html`none: the service is not running${service.port ? html` <small>(it last used port ${service.port})</small>` : ""}`}</dd>
      <dt>Updated</dt><dd>${age(service.updatedAt)}</dd>
    </dl>
    <div class="actions" style="margin-top: 1rem">
      ${service.status === "HEALTHY" ? html`<a class="button" id="action-playground" href="/playground?service=${service.id}">Open in the playground</a>` : ""}
      ${live && service.status !== "STOPPING" ? html`<a class="button secondary" id="action-stop" href="${serviceUrl(service.id)}/stop">Stop…</a>` : ""}
      ${!live && !service.deployment ? html`<a class="button secondary" id="action-restart" href="${serviceUrl(service.id)}/restart">Restart…</a>` : ""}
      <a class="button danger" id="action-remove" href="${serviceUrl(service.id)}/remove">Remove…</a>
    </div>
    <details ${service.events.length <= 6 ? html`open` : ""}>
      <summary>Events (${service.events.length})</summary>
      <table class="events">
        <thead><tr><th scope="col">When</th><th scope="col">Change</th><th scope="col">Reason</th></tr></thead>
        <tbody>
          ${[...service.events].reverse().map(
            (e) => html`<tr><td class="when">${when(e.at)}</td><td>${e.from ? html`${statusBadge(e.from)} → ` : ""}${statusBadge(e.to)}</td><td>${e.reason ?? ""}</td></tr>`,
          )}
        </tbody>
      </table>
    </details>
  </section>`;
}

function option(label: string, value: unknown): SafeHtml {
  if (value === undefined || value === null || value === "") return html``;
  return html`<dt>${label}</dt><dd><code>${String(value)}</code></dd>`;
}

function fieldsCard(s: ServiceDetails): SafeHtml {
  const tg = s.textGeneration ?? {};
  return html`<section class="card">
    <h2>Every field</h2>
    <dl class="facts wide">
      ${option("id", s.id)}${option("name", s.name)}${option("image", s.image)}${option("task", s.task)}
      ${option("model", s.model)}${option("revision", s.revision)}${option("profile", s.profile)}
      ${option("LoRA adapters", s.adapters?.length ? `${s.adapters.join(", ")} (each a model of /v1)` : undefined)}
      ${option("engine", s.engine)}${option("runtime", s.runtime)}${option("handle", s.handle ?? "—")}
      ${isLive(s.status) ? html`${option("host", s.host ?? "—")}${option("port", s.port ?? "None")}${option("url", s.url ?? "—")}` : html`<dt>port</dt><dd>none (not running${s.port ? `; last used ${s.port}` : ""})</dd>`}
      <dt>API key</dt><dd>${s.apiKeySet ? "set (callers send Authorization: Bearer <key>)" : "none: anyone on the host can call it"}</dd>
      ${option("--time", s.job.time)}${option("--mem", s.job.mem === undefined ? undefined : `${s.job.mem} GB`)}${option("--gres", s.job.gres)}
      ${option("--ntasks-per-node", s.job.ntasksPerNode)}${option("--partition", s.job.partition)}${option("--constraint", s.job.constraint)}
      ${option("--max-input-length", tg.maxInputLength)}${option("--max-total-tokens", tg.maxTotalTokens)}${option("--sharded", tg.sharded)}
      ${option("--disable-custom-kernels", tg.disableCustomKernels ? "yes" : undefined)}
      ${option("--input-dir", s.speechRecognition?.inputDir)}
      ${option("engine arguments", s.engineArgs.length ? s.engineArgs.join(" ") : undefined)}
      ${option("--idle-stop", s.policies.idleStop)}${option("--on-demand", s.policies.onDemand ? `yes (start timeout ${s.policies.startTimeout})` : undefined)}
      ${option("--renew", s.policies.renew ? `yes, ${s.policies.renewBefore} before the job's end` : undefined)}
      ${option("last request", s.lastRequestAt)}${option("job ends", s.endsAt)}
      ${option("successor", s.successor ? `${s.successor.phase}${s.successor.handle ? ` (${s.successor.handle.split(":")[0]})` : ""} since ${s.successor.since}` : undefined)}
      ${option("created by", s.createdBy)}
      <dt>created</dt><dd>${when(s.createdAt)} (${age(s.createdAt)})</dd>
      <dt>updated</dt><dd>${when(s.updatedAt)} (${age(s.updatedAt)})</dd>
    </dl>
  </section>`;
}

function logsCard(s: ServiceDetails, logs: ServiceDetailsOptions["logs"]): SafeHtml {
  const stream = `${serviceUrl(s.id)}/logs/stream`;
  const text = "text" in logs ? logs.text || "(no output yet)" : `(${logs.unavailable})`;
  return html`<section class="card" id="logs-card">
    <div class="actions"><h2>Logs</h2><span class="log-status" id="log-status" aria-live="polite">last ${TAIL_LINES} lines when the page was loaded</span></div>
    <pre class="block" id="logs" data-log-stream="${stream}" tabindex="0" aria-label="Service output">${text}</pre>
    <p class="hint"><a href="${serviceUrl(s.id)}/logs">Plain text</a> · from a shell: <code>svc logs ${s.id.slice(0, 13)} -f</code></p>
  </section>`;
}

export function serviceDetailsPage(options: ServiceDetailsOptions & { version: string }): string {
  const s = options.service;
  return layout(
    { title: `Service ${s.name}`, current: SERVICES_PATH, session: options.session },
    html`${SERVICE_STYLE}${STYLE}<p><a href="${SERVICES_PATH}">← Services</a></p>
      <div class="details-head"><h1>${s.name}</h1><span class="badge">${s.image}</span><code title="${s.id}">${s.id}</code></div>
      ${(options.notices ?? []).map((n) => html`<p class="notice" role="status">${n}</p>`)}
      <div class="details-top">
        ${serviceStatusPanel(s, options.version, options.origin)}
        ${logsCard(s, options.logs)}
      </div>
      ${options.queues && answers(s) ? serviceQueueCard(options.queues, s.model, s.id) : ""}
      ${answers(s) ? exampleRequests(s, options.origin, options.tokenRequired) : ""}
      ${fieldsCard(s)}`,
  );
}

export type ServiceAction = "stop" | "restart" | "remove";

const ACTION_TEXT: Record<ServiceAction, { title: string; button: string; explain: string }> = {
  stop: { title: "Stop", button: "Stop the service", explain: "Stops the service and frees its resources. The record stays; you can restart it later with the same id." },
  restart: { title: "Restart", button: "Restart the service", explain: "Starts the service again with the same id, model and options." },
  remove: { title: "Remove", button: "Remove the record", explain: "Deletes the service's record for good. A service that still runs is stopped first." },
};

/** The confirmation step of stop / restart / remove: a page with one POST form (works without JavaScript). */
export function serviceActionPage(options: { service: ServiceDetails; action: ServiceAction; session: boolean; error?: string }): string {
  const { service: s, action } = options;
  const text = ACTION_TEXT[action];
  return layout(
    { title: `${text.title} ${s.name}`, current: SERVICES_PATH, session: options.session },
    html`${SERVICE_STYLE}<section class="card narrow">
      <h1>${text.title} ${s.name}?</h1>
      ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
      <p>${s.model} · <code>${s.id.slice(0, 13)}</code> · ${statusBadge(s.status)}</p>
      <p>${text.explain}</p>
      <form method="post" action="${serviceUrl(s.id)}/${action}">
        <div class="actions">
          <button type="submit" class="${action === "restart" ? "" : "danger"}" autofocus>${text.button}</button>
          <a href="${serviceUrl(s.id)}">Cancel</a>
        </div>
      </form>
    </section>`,
  );
}
