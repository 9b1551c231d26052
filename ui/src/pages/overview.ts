import { dockerNetworkWords, type AppInfo, type HealthReport } from "@svc/contracts";
import { html } from "../html";
import { layout } from "../layout";

export function overviewPage(info: AppInfo, health: HealthReport, session: boolean): string {
  return layout(
    { title: "Overview", current: "/", session },
    html`<h1>svc ${info.version}</h1>
      <section class="card">
        <h2>Application</h2>
        <dl class="facts">
          <dt>Address</dt><dd><code>http://${info.host}:${info.port}</code></dd>
          <dt>Home folder</dt><dd><code>${info.homeDir}</code></dd>
          <dt>Debug mode</dt><dd>${info.debug ? "on (no authentication)" : "off (auth token required)"}</dd>
          <dt>Docker network</dt><dd>${dockerNetworkWords(info.dockerNetwork)}</dd>
        </dl>
      </section>
      <section class="card" hx-get="/fragments/health" hx-trigger="every 5s" hx-swap="innerHTML">
        ${healthTable(health)}
      </section>`,
  );
}

export function healthTable(health: HealthReport) {
  return html`<h2>Components <span class="badge ${health.status}">${health.status}</span></h2>
    <table>
      <thead><tr><th scope="col">Service</th><th scope="col">State</th><th scope="col">Latency</th></tr></thead>
      <tbody>
        ${health.services.map(
          (s) => html`<tr>
            <td>${s.name}</td>
            <td><span class="badge ${s.state}">${s.state}</span>${s.detail ? html` <small>${s.detail}</small>` : ""}</td>
            <td>${s.latencyMs === null ? "—" : `${s.latencyMs.toFixed(1)} ms`}</td>
          </tr>`,
        )}
      </tbody>
    </table>`;
}
