import type { QueueReport } from "@svc/contracts";
import { html, type SafeHtml } from "../html";
import { serviceUrl } from "./services";

/** How often the service page reads its model's queue again. */
const POLL = "every 2s";

/**
 * The fair-share queue of a service's model (every replica busy: requests wait in the gateway, one
 * queue per key), as the service's page shows it and re-reads every 2 s: who waits per key and tier,
 * and what was refused with 429.
 */
export function serviceQueueCard(report: QueueReport, model: string, serviceId: string): SafeHtml {
  const { fairShare } = report;
  const queue = report.models.find((entry) => entry.model === model);
  const poll = html`hx-get="${serviceUrl(serviceId)}/queue" hx-trigger="${POLL}" hx-swap="outerHTML"`;
  const bounds = html`<p class="hint">Requests for ${model} wait here when every replica has its requests at once in flight, taken by tier and then in turn across keys; at most ${fairShare.queueSeconds} s and ${fairShare.perKey} a key, past which they are refused with 429 and Retry-After. <a href="/docs/fair-share">How it works</a></p>`;
  if (!fairShare.enabled) {
    return html`<section class="card" id="service-queue" ${poll}><h2>Queue</h2><p class="hint">Fair share is off (<code>SVC_FAIR_SHARE=false</code>): requests go to the replicas as they come.</p></section>`;
  }
  if (!queue) return html`<section class="card" id="service-queue" ${poll}><h2>Queue</h2><p id="queue-summary">No request has waited for ${model}.</p>${bounds}</section>`;
  const slots = queue.capacity === null ? html`${queue.inFlight} in flight` : html`${queue.inFlight} in flight of ${queue.capacity} at once`;
  return html`<section class="card" id="service-queue" ${poll}>
    <h2>Queue</h2>
    <p id="queue-summary"><strong>${queue.waiting} waiting</strong> · ${slots} · typical wait ${queue.typicalWaitSeconds} s · refused ${queue.refused.timeout + queue.refused.full} (${queue.refused.timeout} after the time limit, ${queue.refused.full} with the key's queue full)</p>
    ${queue.keys.length
      ? html`<table class="queue">
      <thead><tr><th scope="col">Key</th><th scope="col">Tier</th><th scope="col">Weight</th><th scope="col">Waiting</th><th scope="col">Oldest</th></tr></thead>
      <tbody>${queue.keys.map((key) => html`<tr><td>${key.key}</td><td>${key.tier}</td><td>${key.weight}</td><td>${key.waiting}</td><td>${key.oldestSeconds.toFixed(1)} s</td></tr>`)}</tbody>
    </table>`
      : ""}
    ${bounds}
  </section>`;
}
