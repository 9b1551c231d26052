import { dockerNetworkWords, SERVICE_STATUSES, type AppInfo, type EngineReach, type HealthReport, type Model, type ServiceRecord } from "@svc/contracts";
import { html } from "../html";
import { layout } from "../layout";

/** What the overview counts; undefined when the service that keeps them does not answer. */
export interface OverviewCounts {
  services?: ServiceRecord[];
  models?: Model[];
}

function countBy<T>(items: T[], key: (item: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts.entries()];
}

function servicesCard(services: ServiceRecord[] | undefined) {
  if (!services) return html`<section class="card" id="service-counts"><h2>Services</h2><p class="error">orchestrator-svc is not answering; no counts.</p></section>`;
  const byStatus = countBy(services, (s) => s.status).sort(([a], [b]) => SERVICE_STATUSES.indexOf(a as never) - SERVICE_STATUSES.indexOf(b as never));
  const byProfile = countBy(services, (s) => s.profile).sort(([a], [b]) => a.localeCompare(b));
  return html`<section class="card" id="service-counts">
    <h2>Services <small>${services.length} recorded</small></h2>
    ${services.length === 0
      ? html`<p>No services yet. <a href="/services/new">Launch one</a>.</p>`
      : html`<div class="counts">
          <table aria-label="Services per status">
            <thead><tr><th scope="col">Status</th><th scope="col">Services</th></tr></thead>
            <tbody>${byStatus.map(([status, n]) => html`<tr><td><a href="/services?status=${status}"><span class="badge status-${status.toLowerCase()}">${status}</span></a></td><td>${n}</td></tr>`)}</tbody>
          </table>
          <table aria-label="Services per profile">
            <thead><tr><th scope="col">Profile</th><th scope="col">Services</th></tr></thead>
            <tbody>${byProfile.map(([profile, n]) => html`<tr><td><a href="/services?status=all&amp;profile=${encodeURIComponent(profile)}">${profile}</a></td><td>${n}</td></tr>`)}</tbody>
          </table>
        </div>`}
  </section>`;
}

function modelsCard(models: Model[] | undefined) {
  if (!models) return html`<section class="card" id="model-counts"><h2>Models</h2><p class="error">model-svc is not answering; no counts.</p></section>`;
  const repos = new Set(models.map((m) => m.repo)).size;
  const rows = countBy(models, (m) => `${m.profile}\u0000${m.image}`).sort(([a], [b]) => a.localeCompare(b));
  const partial = models.filter((m) => m.partial).length;
  return html`<section class="card" id="model-counts">
    <h2>Models <small>${repos} repos, ${models.length} snapshots${partial ? `, ${partial} partial` : ""}</small></h2>
    ${models.length === 0
      ? html`<p>No models registered. <a href="/models">Refresh or add them</a>.</p>`
      : html`<table aria-label="Models per profile and task">
          <thead><tr><th scope="col">Profile</th><th scope="col">Task</th><th scope="col">Snapshots</th></tr></thead>
          <tbody>${rows.map(([key, n]) => {
            const [profile, image] = key.split("\u0000");
            return html`<tr><td>${profile}</td><td><a href="/models?profile=${encodeURIComponent(profile)}&amp;image=${image}">${image}</a></td><td>${n}</td></tr>`;
          })}</tbody>
        </table>`}
  </section>`;
}

export function overviewPage(info: AppInfo, health: HealthReport, session: boolean, counts: OverviewCounts = {}): string {
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
      ${servicesCard(counts.services)}
      ${modelsCard(counts.models)}
      <div hx-get="/fragments/health" hx-trigger="every 5s" hx-swap="innerHTML" id="health">
        ${healthTable(health)}
      </div>`,
  );
}

const reachWords: Record<EngineReach["state"], string> = { reachable: "reachable", unreachable: "not reachable", unknown: "checking…" };

function enginesTable(engines: EngineReach[]) {
  if (engines.length === 0) return html`<p class="error">orchestrator-svc is not answering: engine reachability is unknown.</p>`;
  return html`<table aria-label="Engines">
    <thead><tr><th scope="col">Engine</th><th scope="col">Profile</th><th scope="col">Target</th><th scope="col">State</th><th scope="col">Detail</th></tr></thead>
    <tbody>
      ${engines.map(
        (e) => html`<tr data-engine="${e.engine}" data-profile="${e.profile ?? ""}">
          <td>${e.engine === "docker" ? "Docker Engine" : "Slurm"}</td>
          <td>${e.profile ?? html`<small>all local profiles</small>`}</td>
          <td><code>${e.target}</code></td>
          <td><span class="badge ${e.state === "reachable" ? "up" : e.state === "unreachable" ? "down" : ""}">${reachWords[e.state]}</span></td>
          <td><small>${e.detail}</small></td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The components' health and the engines' reachability (polled by the overview every 5 s). */
export function healthTable(health: HealthReport) {
  return html`<section class="card" id="engines">
      <h2>Engines</h2>
      ${enginesTable(health.engines)}
    </section>
    <section class="card" id="components">
      <h2>Components <span class="badge ${health.status}">${health.status}</span></h2>
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
      </table>
    </section>`;
}
