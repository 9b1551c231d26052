import type { OutsideEndpoint } from "@svc/contracts";
import { html } from "../html";
import { SERVICE_STYLE, statusBadge } from "./services";

/** The Keys page's list of outside endpoints (svc endpoint add): their models and health, never their keys. */
export function outsideEndpointsSection(endpoints: OutsideEndpoint[]) {
  return html`${SERVICE_STYLE}<section class="card" id="outside-endpoints">
    <h2>Outside endpoints</h2>
    <p class="hint">OpenAI-compatible servers svc did not launch, served through <code>/v1</code> with these keys (<code>svc endpoint add NAME URL --api-key-file F</code>).</p>
    ${endpoints.length === 0
      ? html`<p>No outside endpoints.</p>`
      : html`<table>
          <thead><tr><th scope="col">Name</th><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Models</th><th scope="col">Key</th><th scope="col">Checked</th></tr></thead>
          <tbody>
            ${endpoints.map(
              (endpoint) => html`<tr>
                <td>${endpoint.name}</td>
                <td><code>${endpoint.url}</code></td>
                <td>${statusBadge(endpoint.status)}${endpoint.reason ? html` <span class="reason">${endpoint.reason}</span>` : ""}</td>
                <td>${endpoint.models.join(", ") || "none"}</td>
                <td>${endpoint.hasKey ? "stored" : "none"}</td>
                <td>${endpoint.checkedAt ? endpoint.checkedAt.slice(0, 16).replace("T", " ") : "never"}</td>
              </tr>`,
            )}
          </tbody>
        </table>`}
  </section>`;
}
