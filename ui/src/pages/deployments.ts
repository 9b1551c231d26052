import { formatDuration, ROUTING_MODES, type DeploymentDetails, type DeploymentRecord } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { layout } from "../layout";
import { age, SERVICE_STYLE, SERVICES_PATH, serviceUrl, statusBadge } from "./services";

export const DEPLOYMENTS_PATH = "/deployments";
export const deploymentUrl = (id: string) => `${DEPLOYMENTS_PATH}/${encodeURIComponent(id)}`;

/** Look of the deployment rows and page, beside SERVICE_STYLE. */
export const DEPLOYMENT_STYLE = html`<style>
  .badge.ACTIVE { background: #dcf3e5; color: var(--ok); }
  .services tr.deployment td { border-top: 2px solid var(--line); font-weight: 600; }
  .services tr.replica td:first-child { padding-left: 1.6rem; }
  .services tr.replica td:first-child::before { content: "↳ "; color: var(--muted); }
  .counts { color: var(--muted); font-size: .85rem; margin-left: .3rem; font-weight: normal; }
  .scale-form .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: .5rem 1rem; align-items: end; }
  .scale-form select { width: 100%; padding: .45rem .5rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; }
</style>`;

/** "2 healthy, 1 coming of 0..3". */
export const replicaCounts = (d: DeploymentRecord) => `${d.healthy} healthy${d.coming ? `, ${d.coming} coming` : ""} of ${d.min}..${d.max}`;

/** The services table's row for a deployment; its replicas follow it as rows of class `replica`. */
export function deploymentRow(d: DeploymentRecord): SafeHtml {
  return html`<tr class="deployment${d.status === "STOPPED" ? " ended" : ""}" data-deployment-id="${d.id}">
    <td><a href="${deploymentUrl(d.id)}" title="${d.id}"><code>${d.id.slice(0, 13)}</code></a></td>
    <td>deployment</td>
    <td class="model">${d.model}</td>
    <td><time datetime="${d.createdAt}" title="${d.createdAt}">${age(d.createdAt)}</time></td>
    <td><time datetime="${d.updatedAt}" title="${d.updatedAt}">${age(d.updatedAt)}</time></td>
    <td class="status"><span class="badge ${d.status}">${d.status}</span><span class="counts">${replicaCounts(d)}</span></td>
    <td></td>
    <td><a href="${deploymentUrl(d.id)}">${d.name}</a></td>
    <td>${d.profile}</td>
  </tr>`;
}

/** Seconds as the form shows them again: 300 → "5m", 3600 → "1h", 45 → "45s". */
const asTyped = (seconds: number) => (seconds % 3600 === 0 ? `${seconds / 3600}h` : seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`);

const when = (iso: string) => html`<time datetime="${iso}" title="${iso}">${iso.slice(0, 19).replace("T", " ")} UTC</time>`;

/** What the scale form holds (as typed), and a refused scale's message. */
export interface ScaleFormValues {
  replicas?: string;
  targetInflight?: string;
  scaleUpAfter?: string;
  scaleDownAfter?: string;
  routing?: string;
}

function scaleForm(d: DeploymentRecord, values: ScaleFormValues, error?: string): SafeHtml {
  const value = (typed: string | undefined, current: string) => typed ?? current;
  const routing = values.routing ?? d.routing;
  return html`<section class="card scale-form" id="scale">
    <h2>Scale</h2>
    ${error ? html`<p class="error" role="alert" id="scale-error">${error}</p>` : ""}
    <form method="post" action="${deploymentUrl(d.id)}/scale">
      <div class="grid">
        <div><label for="f-replicas">Replicas (MIN..MAX)</label><input id="f-replicas" name="replicas" value="${value(values.replicas, `${d.min}..${d.max}`)}" required autocomplete="off" spellcheck="false" ${error ? html`aria-describedby="scale-error"` : ""} /></div>
        <div><label for="f-targetInflight">Target in flight per replica</label><input id="f-targetInflight" name="targetInflight" inputmode="numeric" value="${value(values.targetInflight, String(d.targetInflight))}" autocomplete="off" /></div>
        <div><label for="f-scaleUpAfter">Scale up after</label><input id="f-scaleUpAfter" name="scaleUpAfter" value="${value(values.scaleUpAfter, asTyped(d.scaleUpAfterSeconds))}" autocomplete="off" /></div>
        <div><label for="f-scaleDownAfter">Scale down after</label><input id="f-scaleDownAfter" name="scaleDownAfter" value="${value(values.scaleDownAfter, asTyped(d.scaleDownAfterSeconds))}" autocomplete="off" /></div>
        <div><label for="f-routing">Routing</label><select id="f-routing" name="routing">${ROUTING_MODES.map((m) => html`<option value="${m}" ${m === routing ? html`selected` : ""}>${m}</option>`)}</select></div>
      </div>
      <p class="hint">MIN 0: no replica runs until a request comes. A replica is added when the requests in flight per replica stay above the target for "scale up after"; one is drained and stopped after "scale down after" without a request. ${d.status === "STOPPED" ? "Scaling a stopped deployment starts it again." : ""}</p>
      <div class="actions"><button type="submit" id="action-scale">Scale</button></div>
    </form>
  </section>`;
}

/**
 * The part of the page that follows the deployment: bounds, counts, replicas and events (newest
 * first). htmx polls it every second; 204 while `version` holds.
 */
export function deploymentPanel(d: DeploymentDetails, version: string): SafeHtml {
  return html`<section class="card" id="deployment-status" hx-get="${deploymentUrl(d.id)}/status?v=${version}" hx-trigger="every 1s" hx-swap="outerHTML" aria-live="polite">
    <h2>Status <span class="badge ${d.status}">${d.status}</span></h2>
    <dl class="facts">
      <dt>Replicas</dt><dd id="replica-counts">${replicaCounts(d)}</dd>
      <dt>In flight</dt><dd>${d.inFlight} request${d.inFlight === 1 ? "" : "s"} (target ${d.targetInflight} per replica)</dd>
      <dt>Scale up after</dt><dd>${formatDuration(d.scaleUpAfterSeconds)} above the target</dd>
      <dt>Scale down after</dt><dd>${formatDuration(d.scaleDownAfterSeconds)} without a request</dd>
      <dt>Routing</dt><dd id="routing">${d.routing}</dd>
    </dl>
    <h3>Replicas</h3>
    ${d.replicas.length
      ? html`<table class="services"><thead><tr><th scope="col">Service ID</th><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Port</th><th scope="col">Updated</th></tr></thead><tbody>
          ${d.replicas.map((r) => html`<tr data-service-id="${r.id}"><td><a href="${serviceUrl(r.id)}"><code>${r.id.slice(0, 13)}</code></a></td><td>${r.name}</td><td>${statusBadge(r.status)}</td><td>${r.port ?? "None"}</td><td>${age(r.updatedAt)}</td></tr>`)}
        </tbody></table>`
      : html`<p>No replica records.</p>`}
    <h3>Events</h3>
    ${d.events.length
      ? html`<table class="events" id="deployment-events"><thead><tr><th scope="col">When</th><th scope="col">Replicas</th><th scope="col">Reason</th></tr></thead><tbody>
          ${[...d.events].reverse().map((e) => html`<tr><td class="when">${when(e.at)}</td><td>${e.from} → ${e.to}</td><td>${e.message}</td></tr>`)}
        </tbody></table>`
      : html`<p class="hint">No scaling decision yet.</p>`}
  </section>`;
}

export function deploymentDetailsPage(options: { deployment: DeploymentDetails; version: string; session: boolean; notices?: string[]; scale?: ScaleFormValues; scaleError?: string }): string {
  const d = options.deployment;
  return layout(
    { title: `Deployment ${d.name}`, current: SERVICES_PATH, session: options.session },
    html`${SERVICE_STYLE}${DEPLOYMENT_STYLE}<p><a href="${SERVICES_PATH}">← Services</a></p>
      <div class="actions"><h1>${d.name}</h1><span class="badge">deployment</span><code title="${d.id}">${d.id}</code></div>
      ${(options.notices ?? []).map((n) => html`<p class="notice" role="status">${n}</p>`)}
      <p>${d.model}@<code>${d.revision.slice(0, 12)}</code> on profile ${d.profile} (${d.engine}) · created ${when(d.createdAt)} by ${d.createdBy}.
        Requests to <code>/v1</code> for ${d.model} go to its HEALTHY replicas.</p>
      ${deploymentPanel(d, options.version)}
      ${scaleForm(d, options.scale ?? {}, options.scaleError)}
      <section class="card"><div class="actions">
        ${d.status === "ACTIVE" ? html`<a class="button secondary" id="action-stop" href="${deploymentUrl(d.id)}/stop">Stop…</a>` : ""}
        <a class="button danger" id="action-remove" href="${deploymentUrl(d.id)}/remove">Remove…</a>
        <span class="hint">From a shell: <code>svc details ${d.name}</code>, <code>svc scale ${d.name} MIN..MAX</code>.</span>
      </div></section>`,
  );
}

export type DeploymentAction = "stop" | "remove";

const ACTION_TEXT: Record<DeploymentAction, { title: string; button: string; explain: string }> = {
  stop: { title: "Stop", button: "Stop the deployment", explain: "Drains every replica (no request is cut) and stops it; scaling is off until you scale it again. The records stay." },
  remove: { title: "Remove", button: "Remove the deployment", explain: "Deletes the deployment and its replicas' records for good. Replicas that still run are stopped first." },
};

/** The confirmation step of stop / remove: one POST form (works without JavaScript). */
export function deploymentActionPage(options: { deployment: DeploymentRecord; action: DeploymentAction; session: boolean; error?: string }): string {
  const { deployment: d, action } = options;
  const text = ACTION_TEXT[action];
  return layout(
    { title: `${text.title} ${d.name}`, current: SERVICES_PATH, session: options.session },
    html`${SERVICE_STYLE}${DEPLOYMENT_STYLE}<section class="card narrow">
      <h1>${text.title} ${d.name}?</h1>
      ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
      <p>${d.model} · <code>${d.id.slice(0, 13)}</code> · <span class="badge ${d.status}">${d.status}</span> ${replicaCounts(d)}</p>
      <p>${text.explain}</p>
      <form method="post" action="${deploymentUrl(d.id)}/${action}">
        <div class="actions"><button type="submit" class="danger" autofocus>${text.button}</button><a href="${deploymentUrl(d.id)}">Cancel</a></div>
      </form>
    </section>`,
  );
}
